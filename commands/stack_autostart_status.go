package commands

import (
	"context"
	"os"

	"github.com/urfave/cli/v3"

	"loams.dev/cli/internal/output"
)

// autostartStatus is `autostart status`.
type autostartStatus struct {
	Stack         string `json:"stack"`
	Autostart     string `json:"autostart"`
	Manager       string `json:"manager"`
	File          string `json:"file"`
	Program       string `json:"program,omitempty"`
	ProgramExists bool   `json:"program_exists"`
	Active        bool   `json:"active"`
}

type autostartStatusOptions struct {
	Name string // "" asks the target rule
}

func newAutostartStatusCmd(f *Factory) *cli.Command {
	opts := &autostartStatusOptions{}
	return &cli.Command{
		Name:        "status",
		Usage:       "Say whether a stack is registered with the service manager, and running under it",
		Description: describe("", "loams stack autostart status dev", "loams stack autostart status dev -o json"),
		Flags:       []cli.Flag{nameFlag(&opts.Name, false)},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runAutostartStatus(ctx, f, opts)
		},
	}
}

func runAutostartStatus(ctx context.Context, f *Factory, opts *autostartStatusOptions) error {
	n, r, err := f.stackRegistration(opts.Name)
	if err != nil {
		return err
	}
	st := autostartStatus{Stack: n, Autostart: "off", Manager: r.p.Manager, File: r.file}
	if data, err := os.ReadFile(r.file); err == nil {
		st.Autostart, st.Program = "on", r.p.Program(data)
		_, err := os.Stat(st.Program)
		st.ProgramExists = st.Program != "" && err == nil
		_, err = r.run.Run(ctx, r.p.Active(r.u, r.s))
		st.Active = err == nil
	}
	rows := [][]string{{"stack", n}, {"autostart", st.Autostart}, {"manager", st.Manager}, {"file", st.File}}
	if st.Autostart == "on" {
		rows = append(rows, []string{"runs", st.Program}, []string{"active", yesNo(st.Active)})
	}
	return f.Printer().Print(output.View{JSON: st, Rows: rows})
}
