package serverbin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Instance is the server's answer to GetInstance.
type Instance struct {
	InstanceID    string    `json:"instance_id"`
	Name          string    `json:"name"`
	Edition       string    `json:"edition"`
	ServerVersion string    `json:"server_version"`
	APIVersions   []string  `json:"api_versions"`
	Services      []Service `json:"services"`
	SignInMethods []string  `json:"sign_in_methods"`
}

// Service is one Connect package the server has (or lacks: available false).
type Service struct {
	Package   string `json:"package"`
	Available bool   `json:"available"`
	Unstable  bool   `json:"unstable"`
}

// ErrNoGetInstance is an older server without the route: fall back to --version.
var ErrNoGetInstance = errors.New("the server has no GetInstance")

// GetInstancePath is the Connect route on the native port.
const GetInstancePath = "/loams.instance.v1.InstanceService/GetInstance"

// instanceClient is for loopback stacks; a remote endpoint has its own client.
var instanceClient = &http.Client{Timeout: 2 * time.Second}

// GetInstance asks the server at baseURL (http://127.0.0.1:8080) what it
// is: Connect protocol, JSON, body {}, no auth. The Connect JSON mapping
// is lowerCamelCase; snake_case is accepted too.
func GetInstance(ctx context.Context, baseURL string) (*Instance, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+GetInstancePath, bytes.NewReader([]byte("{}")))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := instanceClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusMethodNotAllowed,
		resp.StatusCode == http.StatusNotImplemented, resp.StatusCode == http.StatusUnsupportedMediaType:
		return nil, ErrNoGetInstance
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("GetInstance answered %s", resp.Status)
	}
	return parseInstance(body)
}

func parseInstance(body []byte) (*Instance, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, fmt.Errorf("GetInstance: %w", err)
	}
	in := &Instance{}
	field := func(dst any, names ...string) {
		for _, n := range names {
			if v, ok := raw[n]; ok {
				_ = json.Unmarshal(v, dst)
				return
			}
		}
	}
	field(&in.InstanceID, "instanceId", "instance_id")
	field(&in.Name, "name")
	field(&in.Edition, "edition")
	field(&in.ServerVersion, "serverVersion", "server_version")
	field(&in.APIVersions, "apiVersions", "api_versions")
	field(&in.Services, "services")
	field(&in.SignInMethods, "signInMethods", "sign_in_methods")
	if in.Services == nil {
		in.Services = []Service{}
	}
	return in, nil
}
