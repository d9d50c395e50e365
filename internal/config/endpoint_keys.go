package config

import (
	"fmt"
	"regexp"
	"sync"

	"loams.dev/cli/endpoint"
)

// validEndpoint accepts what --endpoint accepts (a URL or local:STACK), so
// a value `configure set` stored never fails later; an http:// URL off
// loopback is refused here already, with insecure_endpoint.
func validEndpoint(v string) error {
	if v == "" {
		return nil
	}
	_, err := endpoint.ParseTarget(v)
	return err
}

// namespaceName is what the server accepts as a namespace name; it travels
// in a header, so nothing that could break one gets through.
var namespaceName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`) })

func validNamespace(v string) error {
	if v != "" && !namespaceName().MatchString(v) {
		return fmt.Errorf("a name matching %s", namespaceName())
	}
	return nil
}
