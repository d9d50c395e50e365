package secret

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
)

// The values of the `secrets` setting and LOAMS_SECRETS.
const (
	ModeAuto    = "auto"
	ModeKeyring = "keyring"
	ModeFile    = "file"
)

// ResolveMode applies LOAMS_SECRETS over the profile's `secrets` setting;
// empty means auto.
func ResolveMode(profile string, getenv func(string) string) (string, error) {
	mode, from := profile, "the profile's secrets setting"
	if v := getenv("LOAMS_SECRETS"); v != "" {
		mode, from = v, "LOAMS_SECRETS"
	}
	switch mode {
	case "":
		return ModeAuto, nil
	case ModeAuto, ModeKeyring, ModeFile:
		return mode, nil
	}
	return "", errs.New(errs.Usage, "use auto, keyring or file", "unknown secrets mode %q in %s", mode, from).With("secrets", mode)
}

// Open picks the store for mode. auto probes the keyring once and falls
// back to the file store, calling notice once to say so (pass nil to stay
// quiet, e.g. in json mode); keyring fails with keyring_unavailable instead
// of falling back; file never touches the keyring.
func Open(ctx context.Context, mode string, h home.Home, notice func(string)) (Store, error) {
	return open(ctx, mode, h, NewKeyring(), notice)
}

func open(ctx context.Context, mode string, h home.Home, kr *Keyring, notice func(string)) (Store, error) {
	file := File{Home: h, Scope: kr.Scope}
	switch mode {
	case ModeFile:
		return file, nil
	case ModeKeyring:
		if err := kr.Probe(ctx); err != nil {
			return nil, err
		}
		return kr, nil
	case "", ModeAuto:
		if err := kr.Probe(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if notice != nil {
				notice(fmt.Sprintf("note: no usable OS keyring (%s); keeping %s keys in %s (mode 0600)",
					probeReason(err), kr.Scope.noun(), filepath.Join(kr.Scope.dir(h, "<name>"), "secrets")+"/"))
			}
			return file, nil
		}
		return &Auto{Keyring: kr, File: file}, nil
	}
	return nil, errs.New(errs.Usage, "use auto, keyring or file", "unknown secrets mode %q", mode)
}

func probeReason(err error) string {
	if e := errs.As(err); e != nil {
		return e.Message
	}
	return err.Error()
}

// Auto is the store of `secrets = auto` when the keyring works: new keys go
// to the keyring, and keys left in the file store by an earlier fallback
// are still found and still deleted.
type Auto struct {
	Keyring *Keyring
	File    File
}

func (a *Auto) Get(ctx context.Context, stack string) (Secret, error) {
	s, err := a.Keyring.Get(ctx, stack)
	if errors.Is(err, ErrNotFound) {
		return a.File.Get(ctx, stack)
	}
	return s, err
}

// Set stores in the keyring and drops a stale file copy, so one key never
// lives in two places with two values.
func (a *Auto) Set(ctx context.Context, stack string, s Secret) error {
	if err := a.Keyring.Set(ctx, stack, s); err != nil {
		return err
	}
	return a.File.Delete(ctx, stack)
}

// Delete removes the key from both stores.
func (a *Auto) Delete(ctx context.Context, stack string) error {
	kerr := a.Keyring.Delete(ctx, stack)
	ferr := a.File.Delete(ctx, stack)
	return errors.Join(kerr, ferr)
}

func (a *Auto) Backend() string { return "keyring" }
