// Package standin starts the stand-in Loams server (internal/testkit/testserver)
// for tests of remote endpoints: on 127.0.0.1, behind TLS with a CA made
// for the test, and requiring a key when given one. Tests only.
package standin

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"loams.dev/cli/internal/testkit/testbin"
)

// CA is a certificate authority made for one test.
type CA struct {
	Cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	PEMPath string // the CA certificate, for ca_cert or SSL_CERT_FILE
}

// NewCA makes a CA and writes its certificate to dir/ca.pem.
func NewCA(t testing.TB, dir string) *CA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "loams test CA " + t.Name()},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	ca := &CA{Cert: cert, key: key, PEMPath: filepath.Join(dir, "ca.pem")}
	writePEM(t, ca.PEMPath, "CERTIFICATE", der)
	return ca
}

// Issue writes a server certificate for the given IPs and names, signed by
// the CA, and returns the paths of the certificate and key.
func (ca *CA) Issue(t testing.TB, dir string, ips []string, names ...string) (certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "stand-in"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: names,
	}
	for _, ip := range ips {
		tmpl.IPAddresses = append(tmpl.IPAddresses, net.ParseIP(ip))
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPath, keyPath = filepath.Join(dir, "server.pem"), filepath.Join(dir, "server.key")
	writePEM(t, certPath, "CERTIFICATE", der)
	writePEM(t, keyPath, "EC PRIVATE KEY", kder)
	return certPath, keyPath
}

func writePEM(t testing.TB, path, typ string, der []byte) {
	t.Helper()
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Options say how to start the stand-in.
type Options struct {
	Cert, KeyFile string   // serve TLS with these (from CA.Issue)
	APIKey        string   // require Authorization: Bearer APIKey
	Env           []string // more environment (TESTSERVER_*)
	ES            bool     // also serve the Elasticsearch listener (Server.ESURL)
}

// Server is a running stand-in; it is stopped when the test ends.
type Server struct {
	URL   string // https://127.0.0.1:PORT (or http://)
	Port  string
	ESURL string // the Elasticsearch listener, with Options.ES
}

// Start runs the stand-in on 127.0.0.1 with a port the kernel picks and
// waits for its listening line.
func Start(t testing.TB, o Options) *Server {
	t.Helper()
	dir := t.TempDir()
	args := []string{"dev", "--data-dir", dir, "--listen", "127.0.0.1:0", "--no-flight-sql", "--no-qdrant", "--no-durable", "--no-mcp", "--no-live"}
	if o.ES {
		args = append(args, "--es-listen", "127.0.0.1:0")
	} else {
		args = append(args, "--no-es")
	}
	if o.Cert != "" {
		args = append(args, "--tls-cert", o.Cert, "--tls-key", o.KeyFile)
	}
	cmd := exec.Command(testbin.Build(t, "./internal/testkit/testserver"), args...)
	cmd.Env = append(os.Environ(), o.Env...)
	if o.APIKey != "" {
		cmd.Env = append(cmd.Env, "LOAMS_API_KEY="+o.APIKey)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	// The listening lines, native first or not: the server prints each as
	// its listener binds.
	lines := make(chan [2]string, 2)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "loams listening on "); ok {
				lines <- [2]string{"native", u}
			} else if u, ok := strings.CutPrefix(sc.Text(), "loams es listening on "); ok {
				lines <- [2]string{"es", u}
			}
		}
		_, _ = io.Copy(io.Discard, out)
	}()
	srv := &Server{}
	timeout := time.After(20 * time.Second)
	for srv.URL == "" || (o.ES && srv.ESURL == "") {
		select {
		case l := <-lines:
			if l[0] == "es" {
				srv.ESURL = l[1]
				continue
			}
			srv.URL = l[1]
			_, srv.Port, _ = net.SplitHostPort(strings.TrimPrefix(strings.TrimPrefix(l[1], "https://"), "http://"))
		case <-timeout:
			t.Fatal("the stand-in did not print its listening lines")
			return nil
		}
	}
	return srv
}

// StartTLS runs the stand-in behind TLS on 127.0.0.1, with a certificate
// from a CA made for the test (its PEM at ca.PEMPath, for ca_cert or
// SSL_CERT_FILE); apiKey, when set, is required as a Bearer token.
func StartTLS(t testing.TB, apiKey string) (*Server, *CA) {
	t.Helper()
	dir := t.TempDir()
	ca := NewCA(t, dir)
	cert, key := ca.Issue(t, dir, []string{"127.0.0.1"})
	return Start(t, Options{Cert: cert, KeyFile: key, APIKey: apiKey}), ca
}
