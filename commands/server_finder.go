package commands

import "loams.dev/cli/serverbin"

// serverFinder is discovery for this CLI: LOAMS_HOME, the profile's
// server_binary, and this executable as the one to never pick.
func (f *Factory) serverFinder(explicit string) (*serverbin.Finder, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	p, err := f.Profile()
	if err != nil {
		return nil, err
	}
	fd := serverbin.NewFinder(h, f.Getenv, explicit, p.ServerBinary)
	if f.Executable != nil {
		if self, err := f.executable(); err == nil {
			fd.Self = self
		}
	}
	return fd, nil
}
