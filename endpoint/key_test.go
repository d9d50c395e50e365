package endpoint

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/home"
	"loams.dev/cli/secret"
)

// needsKey answers 401 without the test key, like a deployment's WhoAmI.
func needsKey(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"code":"unauthenticated","message":"no key"}`))
		return
	}
	w.Write([]byte(`{"principal":"x"}`))
}

// The first HIGH finding, at the layer that sends the header: a
// key stored for origin A is not sent to any other origin, however it is
// spelled, and the 401 that follows names both origins and the login for
// the new one.
func TestKeyNotSentToAnotherOrigin(t *testing.T) {
	a := newRecorder(t, "127.0.0.1:0", needsKey)
	_, port, _ := net.SplitHostPort(a.srv.Listener.Addr().String())
	other := newRecorder(t, "127.0.0.1:0", needsKey)
	stored := "http://127.0.0.1:" + port
	rows := []struct{ name, url, listen string }{
		{"another port", other.srv.URL, ""},
		{"localhost for 127.0.0.1", "http://localhost:" + port, ""},
		{"trailing dot", "http://localhost.:" + port, ""},
		{"upper case", "http://LOCALHOST:" + port, ""},
		{"another loopback address", "http://127.0.0.2:" + port, "127.0.0.2:" + port},
		{"IPv6 loopback", "http://[::1]:" + port, "[::1]:" + port},
		{"IPv6 long form", "http://[0:0:0:0:0:0:0:1]:" + port, "[::1]:" + port},
		{"https on the same host and port", "https://127.0.0.1:" + port, ""},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			recs := []*recorder{a, other}
			if row.listen != "" {
				recs = append(recs, newRecorder(t, row.listen, needsKey))
			}
			before := make([]int, len(recs))
			for i, r := range recs {
				before[i] = len(r.got())
			}
			c, err := New(row.url, Options{Key: BindKey(secret.New(testKey), stored), Profile: "dev", Retries: -1})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.WhoAmI(context.Background())
			for i, r := range recs {
				for _, auth := range r.got()[before[i]:] {
					if auth != "" {
						t.Fatalf("%s got the key stored for %s", row.url, stored)
					}
				}
			}
			if strings.HasPrefix(row.url, "https") {
				return // a TLS handshake with a plain server: nothing to authenticate
			}
			e := wantCode(t, err, errs.Unauthenticated)
			requested := string(ParseOrigin(row.url))
			if !strings.Contains(e.Message, stored) || !strings.Contains(e.Message, requested) ||
				!strings.Contains(e.Hint, "`loams login --with-api-key --profile dev --endpoint "+row.url+"`") || e.ExitCode() != 8 {
				t.Fatalf("message %q / hint %q should name %s, %s and the login for the new one", e.Message, e.Hint, stored, requested)
			}
			if kerr := c.KeyError(); !errs.Is(kerr, errs.Unauthenticated) {
				t.Fatalf("KeyError = %v", kerr)
			}
		})
	}
}

// The same origin written differently is the same origin: the key goes.
func TestKeySentToItsOriginHoweverWritten(t *testing.T) {
	for _, row := range []struct{ listen, stored, asked string }{
		{"127.0.0.1:0", "http://LOCALHOST.:%s", "http://localhost:%s/"},
		{"127.0.0.1:0", "http://127.0.0.1:%s", "HTTP://127.0.0.1:%s"},
		{"[::1]:0", "http://[::1]:%s", "http://[0:0:0:0:0:0:0:1]:%s"},
	} {
		t.Run(row.stored, func(t *testing.T) {
			r := newRecorder(t, row.listen, needsKey)
			_, port, _ := net.SplitHostPort(r.srv.Listener.Addr().String())
			stored, asked := strings.ReplaceAll(row.stored, "%s", port), strings.ReplaceAll(row.asked, "%s", port)
			c, err := New(asked, Options{Key: BindKey(secret.New(testKey), stored)})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.WhoAmI(context.Background()); err != nil || c.KeyError() != nil {
				t.Fatalf("%s for a key of %s: %v", asked, stored, err)
			}
		})
	}
}

// Go's own http.Client forwards Authorization on a redirect to the same
// host on another port (it compares host names only, and allows
// subdomains); the Client follows redirects itself and drops the key when
// the origin changes.
func TestKeyNotSentAcrossARedirectToAnotherPort(t *testing.T) {
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			other := newRecorder(t, "127.0.0.1:0", nil)
			first := newRecorder(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.srv.URL+r.URL.Path, code)
			})
			c, _ := New(first.srv.URL, Options{Key: BindKey(secret.New(testKey), first.srv.URL)})
			if _, err := c.WhoAmI(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := first.got(); len(got) != 1 || got[0] != "Bearer "+testKey {
				t.Fatalf("the endpoint got %q", got)
			}
			if got := other.got(); len(got) != 1 || got[0] != "" {
				t.Fatalf("the other port got Authorization %q", got)
			}
			// What net/http alone would have done, for the record.
			req, _ := http.NewRequest(http.MethodGet, first.srv.URL+"/x", nil)
			req.Header.Set("Authorization", "Bearer "+testKey)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
			if got := other.got(); len(got) == 2 && got[1] != "" {
				t.Logf("net/http's client forwards the key to another port of the same host on a %d", code)
			}
		})
	}
}

// A redirect from the key's origin to another that wants a key fails
// naming the hop's origin (not its path) and the key's.
func TestRedirectToAnotherOriginThatWantsAKeyNamesBoth(t *testing.T) {
	other := newRecorder(t, "127.0.0.1:0", needsKey)
	first := newRecorder(t, "127.0.0.1:0", redirectTo(other.srv.URL))
	c, _ := New(first.srv.URL, Options{Key: BindKey(secret.New(testKey), first.srv.URL), Profile: "dev"})
	_, err := c.WhoAmI(context.Background())
	e := wantCode(t, err, errs.Unauthenticated)
	if !strings.Contains(e.Message, "redirected to "+other.srv.URL) || !strings.Contains(e.Message, string(ParseOrigin(first.srv.URL))) ||
		!strings.Contains(e.Hint, "--endpoint "+other.srv.URL+"`") {
		t.Fatalf("%q / %q", e.Message, e.Hint)
	}
	if got := other.got(); len(got) != 1 || got[0] != "" {
		t.Fatalf("the other origin got %q", got)
	}
}

// A hostile endpoint that redirects to the key's origin does not make the
// client send the key there on its behalf: the key is used only when the
// endpoint itself is the key's origin.
func TestRedirectToTheKeysOriginFromAnotherCarriesNoKey(t *testing.T) {
	home := newRecorder(t, "127.0.0.1:0", needsKey)
	hostile := newRecorder(t, "127.0.0.1:0", redirectTo(home.srv.URL))
	c, _ := New(hostile.srv.URL, Options{Key: BindKey(secret.New(testKey), home.srv.URL), Profile: "dev"})
	_, err := c.WhoAmI(context.Background())
	wantCode(t, err, errs.Unauthenticated)
	for _, r := range []*recorder{home, hostile} {
		for _, auth := range r.got() {
			if auth != "" {
				t.Fatal("the key went out on a hop the endpoint asked for")
			}
		}
	}
}

// A key stored before origins were recorded is bound, at first use, to the
// profile's own endpoint setting, written back, and said once; with no
// remote endpoint in the profile it is bound to nothing and sent nowhere.
func TestLegacyKeyBoundAtFirstUse(t *testing.T) {
	ctx := context.Background()
	h := home.Home{Dir: t.TempDir()}
	keys, err := secret.OpenProfiles(ctx, secret.ModeFile, h, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := keys.Set(ctx, "staging", secret.New(testKey)); err != nil { // as loams before this change
		t.Fatal(err)
	}
	var notes []string
	note := func(s string) { notes = append(notes, s) }
	k, err := LoadProfileKey(ctx, keys, "staging", "https://Loams.Example.com/", note)
	if err != nil || k.Origin != "https://loams.example.com:443" || k.Secret.Reveal() != testKey {
		t.Fatalf("first use: %+v %v", k.Origin, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "https://loams.example.com:443") || strings.Contains(notes[0], testKey[19:]) {
		t.Fatalf("notice %q", notes)
	}
	if b, err := keys.GetBound(ctx, "staging"); err != nil || b.Origin != string(k.Origin) {
		t.Fatalf("not written back: %+v %v", b.Origin, err)
	}
	if k2, err := LoadProfileKey(ctx, keys, "staging", "https://elsewhere.example.com", note); err != nil || k2.Origin != k.Origin || len(notes) != 1 {
		t.Fatalf("second use: origin %q, %d notices, %v", k2.Origin, len(notes), err)
	}

	// No remote endpoint to bind to: the key is unbound and goes nowhere.
	if err := keys.Set(ctx, "bare", secret.New(testKey)); err != nil {
		t.Fatal(err)
	}
	for _, profileEndpoint := range []string{"", "local:dev"} {
		k, err := LoadProfileKey(ctx, keys, "bare", profileEndpoint, note)
		if err != nil || k.Origin != "" || k.IsZero() {
			t.Fatalf("%q: %+v %v", profileEndpoint, k.Origin, err)
		}
		srv := httptest.NewServer(http.HandlerFunc(needsKey))
		c, _ := New(srv.URL, Options{Key: k, Profile: "bare"})
		_, err = c.WhoAmI(ctx)
		srv.Close()
		if e := wantCode(t, err, errs.Unauthenticated); !strings.Contains(e.Message, "before loams bound keys") {
			t.Fatalf("message %q", e.Message)
		}
	}
	if k, err := LoadProfileKey(ctx, keys, "nobody", "https://x.example.com", note); err != nil || !k.IsZero() {
		t.Fatalf("no key: %+v %v", k, err)
	}
}

// env export hands the key to whatever reads LOAMS_ENDPOINT: Key.For gives
// it only for the key's own origin.
func TestKeyForAnotherOriginIsUnauthenticated(t *testing.T) {
	k := BindKey(secret.New(testKey), "https://a.example.com")
	if s, err := k.For("https://A.example.com.:443/loams", "p"); err != nil || s.Reveal() != testKey {
		t.Fatalf("same origin: %v", err)
	}
	_, err := k.For("https://b.example.com", "p")
	e := wantCode(t, err, errs.Unauthenticated)
	if !strings.Contains(e.Message, "https://a.example.com:443") || !strings.Contains(e.Hint, "--endpoint https://b.example.com") ||
		e.AgentHint == "" {
		t.Fatalf("%q / %q / agent %q", e.Message, e.Hint, e.AgentHint)
	}
	if s, err := (Key{}).For("https://b.example.com", "p"); err != nil || !s.IsZero() {
		t.Fatal("no key is no key, not an error")
	}
}
