package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/endpoint"
	"loams.dev/cli/internal/buildinfo"
	"loams.dev/cli/internal/errs"
	"loams.dev/cli/internal/output"
	"loams.dev/cli/serverbin"
	"loams.dev/cli/stack"
	"loams.dev/cli/workspace"
)

// statusJSON is `loams status --output json` (endpoints.md). Error is what
// went wrong (unreachable, TLS, no key, key refused or bound to another
// origin); status then exits with its code after printing the report.
type statusJSON struct {
	Endpoint      string             `json:"endpoint"`
	Kind          endpoint.Kind      `json:"kind"`
	Profile       string             `json:"profile"`
	Stack         string             `json:"stack,omitempty"`
	Reachable     bool               `json:"reachable"`
	LatencyMS     int64              `json:"latency_ms"`
	ServerVersion string             `json:"server_version"`
	Edition       string             `json:"edition,omitempty"`
	Services      []endpoint.Service `json:"services"`
	Compatibility string             `json:"compatibility"`
	Error         *errs.Object       `json:"error,omitempty"`
	Target        workspace.Target   `json:"target"`
}

func newStatusCmd(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "Check the Loams server this profile talks to, local stack or remote deployment",
		Description: describe("Asks the endpoint (--endpoint, LOAMS_ENDPOINT, the profile's endpoint, else the\n"+
			"default stack) what it is: reachable, latency, server version, edition, services\n"+
			"and version skew. For a remote endpoint it also checks the stored key (WhoAmI).\n"+
			"The report is printed in every case; the exit code says what went wrong: 0 all\n"+
			"well, 7 unreachable or TLS (or a server error), 8 no key, key refused, or a key\n"+
			"stored for another origin.",
			"loams status", "loams --profile staging status --output json", "loams --endpoint local:dev status"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return errs.New(errs.Usage, "run `loams status --help`", "status takes no arguments, got %q", cmd.Args().First())
			}
			return runStatus(ctx, f)
		},
	}
}

// runStatus takes no options: the verb has no flags of its own.
func runStatus(ctx context.Context, f *Factory) error {
	st, err := endpointStatus(ctx, f)
	if err != nil {
		return err
	}
	if err := printStatus(f, st); err != nil {
		return err
	}
	return statusFailed(st)
}

// endpointStatus asks the resolved endpoint for GetInstance. Failing to
// reach it is part of the answer; failing to resolve it is an error.
func endpointStatus(ctx context.Context, f *Factory) (*statusJSON, error) {
	ep, target, err := f.Endpoint()
	if err != nil {
		return nil, err
	}
	f.sayTarget(target)
	st := &statusJSON{Endpoint: ep.URL, Kind: ep.Kind, Profile: ep.Profile, Services: []endpoint.Service{}, Target: target}
	if ep.Kind == endpoint.Local {
		st.Stack = ep.Stack
	}
	key, _, err := f.endpointKey(ctx, ep)
	if err != nil {
		return nil, err
	}
	c, err := f.endpointClient(ep, key)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	r := workspace.Probe(ctx, c)
	st.LatencyMS, st.Reachable = r.Latency.Milliseconds(), r.Reachable
	switch {
	case r.Err != nil:
		e := errs.As(r.Err)
		if e.Code == errs.Internal || errors.Is(r.Err, context.Canceled) {
			return nil, r.Err
		}
		obj := e.Object()
		st.Error = &obj
	case r.Instance == nil:
		// An older server without GetInstance answered: it is up. A local
		// stack knows the version its binary printed.
		if ep.Kind == endpoint.Local {
			if h, herr := f.Home(); herr == nil {
				if spec, lerr := stack.Load(h, ep.Stack); lerr == nil {
					st.ServerVersion = serverbin.SemVer(spec.ServerVersion)
				}
			}
		}
	default:
		st.ServerVersion, st.Edition = serverbin.SemVer(r.Instance.ServerVersion), r.Instance.Edition
		if r.Instance.Services != nil {
			st.Services = r.Instance.Services
		}
	}
	if st.Error == nil && st.Reachable && ep.Kind == endpoint.Remote {
		st.Error = keyStatus(ctx, c)
	}
	st.Compatibility = compatibility(st.ServerVersion)
	return st, nil
}

// keyStatus checks a remote endpoint's key: there is one, it belongs to
// this origin (else it is not sent, and that is the failure), and the
// server's WhoAmI accepts it. A server without WhoAmI cannot say: no error.
func keyStatus(ctx context.Context, c *endpoint.Client) *errs.Object {
	err := c.KeyError()
	if err == nil {
		if _, err = c.WhoAmI(ctx); errors.Is(err, endpoint.ErrNotServed) || errors.Is(err, context.Canceled) {
			err = nil
		}
	}
	if err == nil {
		return nil
	}
	obj := errs.As(err).Object()
	return &obj
}

// statusFailed is the exit code of what went wrong, once the report is
// out: the report on stdout is the result (one document in json mode,
// where stderr stays empty, as for doctor), and people also get the
// error and hint lines on stderr.
func statusFailed(st *statusJSON) error {
	if st.Error == nil {
		return nil
	}
	return &reportedFailure{exit: st.Error.ExitCode, message: st.Error.Message, hint: st.Error.Hint}
}

func printStatus(f *Factory, st *statusJSON) error {
	if st.Compatibility == serverbin.Older && !f.JSON() {
		f.Notice("note: the server (%s) is older than this loams (%s) supports fully; upgrade the server when you can", st.ServerVersion, buildinfo.Get().Version)
	}
	reach := "reachable"
	if !st.Reachable {
		reach = "unreachable"
	}
	where := string(st.Kind)
	if st.Stack != "" {
		where += " (stack " + st.Stack + ")"
	}
	rows := [][]string{{"endpoint", st.Endpoint}, {"kind", where}, {"profile", st.Profile}, {"state", reach}}
	if st.Reachable {
		var svc []string
		for _, s := range st.Services {
			if s.Available {
				svc = append(svc, s.Package)
			}
		}
		rows = append(rows, []string{"latency", fmt.Sprintf("%d ms", st.LatencyMS)}, []string{"server version", orDash(st.ServerVersion)},
			[]string{"edition", orDash(st.Edition)}, []string{"services", orDash(strings.Join(svc, ", "))}, []string{"compatibility", st.Compatibility})
	}
	if st.Error != nil {
		rows = append(rows, []string{"error", st.Error.Message}, []string{"hint", st.Error.Hint})
	}
	return f.Printer().Print(output.View{JSON: st, Rows: rows, TextRows: statusText(st)})
}

// statusText is status for -o text: the json's keys and values, one field
// per cell, latency in integer milliseconds.
func statusText(st *statusJSON) [][]string {
	rows := [][]string{{"endpoint", st.Endpoint}, {"kind", string(st.Kind)}, {"stack", st.Stack}, {"profile", st.Profile},
		{"reachable", strconv.FormatBool(st.Reachable)}}
	if st.Reachable {
		var svc []string
		for _, s := range st.Services {
			if s.Available {
				svc = append(svc, s.Package)
			}
		}
		rows = append(rows, []string{"latency_ms", strconv.FormatInt(st.LatencyMS, 10)}, []string{"server_version", st.ServerVersion},
			[]string{"edition", st.Edition}, []string{"services", strings.Join(svc, ",")}, []string{"compatibility", st.Compatibility})
	}
	if st.Error != nil {
		rows = append(rows, []string{"error", string(st.Error.Code), st.Error.Message})
	}
	return rows
}
