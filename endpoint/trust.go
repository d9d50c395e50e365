package endpoint

import (
	"crypto/x509"
	"os"
	"runtime"

	"loams.dev/cli/internal/errs"
)

// systemBundles are where Linux distributions keep the system roots. Go
// reads only SSL_CERT_FILE when it is set, which would replace the system
// roots; the spec says it adds to them, so they are read back here.
var systemBundles = []string{
	"/etc/ssl/certs/ca-certificates.crt",
	"/etc/pki/tls/certs/ca-bundle.crt",
	"/etc/ssl/ca-bundle.pem",
	"/etc/pki/tls/cacert.pem",
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
	"/etc/ssl/cert.pem",
}

// trustPool is the system roots plus ca_cert plus SSL_CERT_FILE.
func trustPool(caCert string, getenv func(string) string) (*x509.CertPool, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if runtime.GOOS == "linux" && os.Getenv("SSL_CERT_FILE") != "" {
		for _, f := range systemBundles {
			if pem, err := os.ReadFile(f); err == nil && pool.AppendCertsFromPEM(pem) {
				break
			}
		}
	}
	if err := addPEM(pool, caCert, "ca_cert", "`loams configure set ca_cert /path/to/ca.pem`"); err != nil {
		return nil, err
	}
	if err := addPEM(pool, getenv("SSL_CERT_FILE"), "SSL_CERT_FILE", "point SSL_CERT_FILE at a PEM file of CA certificates, or unset it"); err != nil {
		return nil, err
	}
	return pool, nil
}

func addPEM(pool *x509.CertPool, path, setting, fix string) error {
	if path == "" {
		return nil
	}
	pem, err := os.ReadFile(path)
	if err != nil {
		return errs.New(errs.Usage, fix, "%s %s cannot be read: %v", setting, path, err).With(setting, path).Wrap(err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return errs.New(errs.Usage, fix, "%s %s holds no PEM certificate", setting, path).With(setting, path)
	}
	return nil
}
