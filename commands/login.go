package commands

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"
	"golang.org/x/term"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/secret"
)

type loginOptions struct {
	WithAPIKey bool
}

// loginJSON is what login reports: never the key, only its public id.
type loginJSON struct {
	Profile        string `json:"profile"`
	Endpoint       string `json:"endpoint"`
	KeyID          string `json:"key_id"`
	KeyOrigin      string `json:"key_origin"` // the only origin the key is sent to
	SecretsBackend string `json:"secrets_backend"`
	KeyVerified    bool   `json:"key_verified"` // the server's WhoAmI accepted it
	ServerVersion  string `json:"server_version"`
}

func newLoginCmd(f *Factory) *cli.Command {
	opts := &loginOptions{}
	return &cli.Command{
		Name:  "login",
		Usage: "Store an API key for the profile's remote Loams endpoint",
		Description: describe("Reads the key from stdin (never from the command line), checks its format and\n"+
			"that the endpoint answers, and stores it in the OS keyring (or a 0600 file) under\n"+
			"the profile, bound to the endpoint's origin (scheme, host, port): loams sends it\n"+
			"there and nowhere else. Prints the key id, never the key. Without --with-api-key,\n"+
			"login asks the server for its sign-in methods; none are offered yet.",
			"loams configure set endpoint https://loams.example.com", "loams login --with-api-key < key.txt",
			"pass show loams/staging | loams --profile staging login --with-api-key"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "with-api-key", Usage: "read an API key (loams_<key_id>_<secret>) from stdin", Destination: &opts.WithAPIKey},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "pipe the key on stdin: `loams login --with-api-key < key.txt`",
					"login takes no arguments (a key on the command line would land in your shell history)")
			}
			return runLogin(ctx, f, opts)
		},
	}
}

func runLogin(ctx context.Context, f *Factory, opts *loginOptions) error {
	ep, _, err := f.Endpoint()
	if err != nil {
		return err
	}
	if ep.Kind == endpoint.Local {
		return errs.New(errs.Usage, "point the profile at a deployment first: `loams configure set endpoint https://HOST`, or pass --endpoint URL",
			"the endpoint is the local stack %q, which needs no login (loams made its key)", ep.Stack).With("stack", ep.Stack)
	}
	if !opts.WithAPIKey {
		return loginMethods(ctx, f, ep)
	}
	key, err := readKey(f)
	if err != nil {
		return err
	}
	bound := endpoint.BindKey(key, ep.URL)
	c, err := f.endpointClient(ep, bound)
	if err != nil {
		return err
	}
	defer c.Close()
	inst, _, err := c.GetInstance(ctx)
	if err != nil && !errors.Is(err, endpoint.ErrNotServed) {
		return err
	}
	if errors.Is(err, endpoint.ErrNotServed) {
		return errs.New(errs.ServerError, "check the endpoint URL: it must be the native API of a Loams server (`loams configure get endpoint`)",
			"%s does not answer GetInstance: it is not a Loams server, or one too old for remote use", ep.URL).With("endpoint", ep.URL)
	}
	out := loginJSON{Profile: ep.Profile, Endpoint: ep.URL, KeyID: key.KeyID(), KeyOrigin: string(bound.Origin), ServerVersion: inst.ServerVersion}
	switch _, err := c.WhoAmI(ctx); {
	case err == nil:
		out.KeyVerified = true
	case !errors.Is(err, endpoint.ErrNotServed):
		return err // unauthenticated: the key is wrong, nothing is stored
	}
	store, err := f.ProfileKeys(ctx)
	if err != nil {
		return err
	}
	// The key and the origin it is for go into one record of the store.
	if err := store.SetBound(ctx, ep.Profile, secret.Bound{Origin: string(bound.Origin), Key: key}); err != nil {
		return err
	}
	out.SecretsBackend = store.Backend()
	if err := rememberEndpoint(f, ep); err != nil {
		return err
	}
	checked := "not checked (the server has no WhoAmI); checked on first use"
	if out.KeyVerified {
		checked = "accepted by the server"
	}
	return f.Printer().Print(output.View{JSON: out, Rows: [][]string{
		{"profile", out.Profile}, {"endpoint", out.Endpoint}, {"key id", out.KeyID}, {"key", checked},
		{"sent only to", out.KeyOrigin}, {"stored in", out.SecretsBackend},
	}})
}

// loginMethods is `login` without --with-api-key: the server lists its
// sign-in methods in GetInstance, and offers none today.
func loginMethods(ctx context.Context, f *Factory, ep endpoint.Endpoint) error {
	c, err := f.endpointClient(ep, endpoint.Key{})
	if err != nil {
		return err
	}
	defer c.Close()
	inst, _, err := c.GetInstance(ctx)
	if err != nil && !errors.Is(err, endpoint.ErrNotServed) {
		return err
	}
	n := 0
	if inst != nil {
		n = len(inst.SignInMethods)
	}
	msg := "%s offers no interactive sign-in"
	if n > 0 {
		msg = "%s offers sign-in methods this loams cannot use yet"
	}
	return errs.New(errs.AuthNotAvailable, "create an API key on the deployment, then `loams login --with-api-key --profile "+ep.Profile+" < key.txt`",
		msg, ep.URL).With("endpoint", ep.URL).With("sign_in_methods", n)
}

// keyFormat is the Loams key format: loams_<key_id>_<secret>.
var keyFormat = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^loams_[a-z0-9]{12}_[A-Za-z0-9]{16,128}$`) })

// readKey reads one line from stdin: piped, or typed at a terminal with
// echo off. The input is never repeated in an error.
func readKey(f *Factory) (secret.Secret, error) {
	var line string
	if file, ok := f.IO.In.(*os.File); ok && f.IO.StdinTTY {
		if !f.CanPrompt() {
			return secret.Secret{}, errs.New(errs.Usage, "pipe it: `loams login --with-api-key < key.txt`", "no key on stdin and prompts are off")
		}
		fmt.Fprint(f.IO.ErrOut, "Paste the API key (input hidden): ")
		b, err := term.ReadPassword(int(file.Fd()))
		fmt.Fprintln(f.IO.ErrOut)
		if err != nil {
			return secret.Secret{}, err
		}
		line = string(b)
	} else {
		r := bufio.NewReader(io.LimitReader(f.IO.In, 4096))
		s, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			return secret.Secret{}, err
		}
		line = s
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return secret.Secret{}, errs.New(errs.Usage, "pipe the key on stdin: `loams login --with-api-key < key.txt`", "no API key on stdin")
	}
	if !keyFormat().MatchString(line) {
		return secret.Secret{}, errs.New(errs.Usage, "an API key looks like loams_<key_id>_<secret> (a 12-character id of a-z0-9, then letters and digits); copy it again from where it was created",
			"the text on stdin is not a Loams API key (%d characters)", len(line))
	}
	return secret.New(line), nil
}

// rememberEndpoint writes an endpoint given with --endpoint into the
// profile, so the stored key and the URL it belongs to stay together.
func rememberEndpoint(f *Factory, ep endpoint.Endpoint) error {
	if ep.From != "--endpoint" {
		return nil
	}
	h, err := f.Home()
	if err != nil {
		return err
	}
	cfg, err := config.Load(h.Config())
	if err != nil {
		return err
	}
	if p, _ := cfg.Profile(ep.Profile); p.Endpoint == ep.URL {
		return nil
	}
	if err := cfg.Set(ep.Profile, "endpoint", ep.URL); err != nil {
		return err
	}
	if err := h.Ensure(); err != nil {
		return err
	}
	f.say("set endpoint = %s in profile %s", ep.URL, ep.Profile)
	return cfg.Save()
}
