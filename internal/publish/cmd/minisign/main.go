// Command minisign signs this CLI's release checksums for goreleaser.yaml
// (`signs`), with the same library `loams update` verifies them with, so
// the release environment needs no minisign binary and the formats cannot
// drift. Release tooling only: never shipped.
//
//	minisign sign FILE            writes FILE.minisig; the key is the text of a
//	                              minisign secret key file in $LOAMS_MINISIGN_KEY,
//	                              its password (if any) in $LOAMS_MINISIGN_PASSWORD
//	minisign keygen DIR           a throwaway pair for checks: DIR/minisign.key, DIR/minisign.pub
//	minisign verify FILE PUBFILE  checks FILE.minisig against the public key file
package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"aead.dev/minisign"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "minisign:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 2 && args[0] == "sign":
		return sign(args[1])
	case len(args) == 2 && args[0] == "keygen":
		return keygen(args[1])
	case len(args) == 3 && args[0] == "verify":
		return verify(args[1], args[2])
	}
	return errors.New("usage: minisign sign FILE | keygen DIR | verify FILE PUBFILE")
}

func sign(file string) error {
	text := os.Getenv("LOAMS_MINISIGN_KEY")
	if text == "" {
		return errors.New("LOAMS_MINISIGN_KEY is not set: the release environment must provide the signing key (see README, Releasing)")
	}
	var key minisign.PrivateKey
	var err error
	if minisign.IsEncrypted([]byte(text)) {
		key, err = minisign.DecryptKey(os.Getenv("LOAMS_MINISIGN_PASSWORD"), []byte(text))
	} else {
		err = key.UnmarshalText([]byte(text))
	}
	if err != nil {
		return fmt.Errorf("LOAMS_MINISIGN_KEY: %v", err)
	}
	msg, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return os.WriteFile(file+".minisig", minisign.Sign(key, msg), 0o644)
}

func keygen(dir string) error {
	pub, priv, err := minisign.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	privText, _ := priv.MarshalText()
	pubText, _ := pub.MarshalText()
	if err := os.WriteFile(filepath.Join(dir, "minisign.key"), privText, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "minisign.pub"), append(pubText, '\n'), 0o644)
}

func verify(file, pubFile string) error {
	pub, err := minisign.PublicKeyFromFile(pubFile)
	if err != nil {
		return err
	}
	msg, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	sig, err := os.ReadFile(file + ".minisig")
	if err != nil {
		return err
	}
	if !minisign.Verify(pub, msg, sig) {
		return fmt.Errorf("%s.minisig does not verify with %s", file, pubFile)
	}
	fmt.Printf("%s: signature verified\n", file)
	return nil
}
