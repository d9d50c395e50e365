package commands

import (
	"context"
	"fmt"
	"loams.dev/cli/agents"
	"strings"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

// Check statuses.
const (
	checkPass = "pass"
	checkWarn = "warn"
	checkFail = "fail"
)

// doctorCheck is one line of `loams doctor`: a fail or warn always says
// what to do in one line.
type doctorCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// doctorEnv is what every checker reads; checkers only read.
type doctorEnv struct {
	f          *Factory
	stack      string // --stack: only this stack
	projectDir string // --project-dir: the project to check
	// projectAgents are the entries of this project's agent configs,
	// started by checkAgentEntries and reported by checkProject.
	projectAgents []agents.Check
}

// checker produces the checks of one part of the setup.
type checker func(ctx context.Context, env *doctorEnv) []doctorCheck

// doctorCheckers are the parts doctor looks at, in report order. Adding a
// part (the endpoint of a remote profile, endpoints.md) is adding a
// checker here.
func doctorCheckers() []checker {
	return []checker{checkServerUsed, checkOtherServers, checkLoamsHome, checkStacks, checkSnapshots, checkSecretStore, checkAgentEntries, checkAutostart, checkEndpoint, checkProject}
}

// checkEndpoint is the profile's remote endpoint, when it has one
// (doctor_endpoint.go): reachable, TLS, key accepted, skew.
func checkEndpoint(ctx context.Context, env *doctorEnv) []doctorCheck {
	var out []doctorCheck
	for _, c := range endpointChecks(ctx, env.f) {
		out = append(out, doctorCheck(c))
	}
	return out
}

func newDoctorCmd(f *Factory) *cli.Command {
	env := &doctorEnv{f: f}
	return &cli.Command{
		Name:  "doctor",
		Usage: "Check the whole loams setup and say how to fix what is wrong",
		Description: describe("Read-only checks: the server used (found, a server, its version), other servers on\n"+
			"PATH, LOAMS_HOME's owner and modes, each stack (spec, ports, process), the secret\n"+
			"store, each agent's loams entry; then the project you are in (or --project-dir): its\n"+
			"loams.toml binding, that stack running, its .env.loams current. Each is pass, warn or\n"+
			"fail with a one-line fix (info outside a project). Exits 5 when any check fails.",
			"loams doctor", "loams doctor --stack dev", "loams doctor --project-dir ~/src/nodeapp --output json"),
		Flags: []cli.Flag{&cli.StringFlag{Name: "stack", Usage: "check only this stack", Destination: &env.stack},
			&cli.StringFlag{Name: "project-dir", Usage: "the project to check (default: the one you are in)", Destination: &env.projectDir}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			f.useProjectDir(env.projectDir)
			return runDoctor(ctx, env)
		},
	}
}

func runDoctor(ctx context.Context, env *doctorEnv) error {
	f := env.f
	stop := f.IO.Progress("checking")
	checks := []doctorCheck{}
	for _, c := range doctorCheckers() {
		checks = append(checks, c(ctx, env)...)
	}
	stop()
	var rows [][]string
	var failed []string
	for _, c := range checks {
		rows = append(rows, []string{c.Status, c.Name, c.Message, c.Fix})
		if c.Status == checkFail {
			failed = append(failed, c.Name)
		}
	}
	if err := f.Printer().Print(output.View{JSON: map[string]any{"checks": checks},
		Header: []string{"status", "check", "message", "fix"}, Rows: rows, Wrap: "message"}); err != nil {
		return err
	}
	if len(failed) == 0 {
		return nil
	}
	return doctorFailed(failed)
}

// doctorFailed is exit 5. It is not a coded error: the report on stdout
// is the result (in json mode too), so only people get a summary line.
func doctorFailed(names []string) error {
	return &reportedFailure{exit: 5, message: fmt.Sprintf("%d check(s) failed: %s", len(names), strings.Join(names, ", ")),
		hint: "fix them as the report says, then run `loams doctor` again"}
}

// reportedFailure is a command whose output already reports the failure
// (doctor's checks): Run exits with its code and, outside json mode,
// prints its summary on stderr.
type reportedFailure struct {
	exit          int
	message, hint string
}

func (r *reportedFailure) Error() string { return r.message }
