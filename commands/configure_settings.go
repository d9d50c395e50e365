package commands

import (
	"loams.dev/cli/internal/config"
	"loams.dev/cli/internal/output"
)

// editSetting sets or unsets key in the active profile and prints the result
// (configure set and unset).
func editSetting(f *Factory, key, value string, unset bool) error {
	h, err := f.Home()
	if err != nil {
		return err
	}
	cfg, err := config.Load(h.Config())
	if err != nil {
		return err
	}
	name, explicit, err := f.profileName()
	if err != nil {
		return err
	}
	if unset {
		if _, ok := cfg.Profile(name); !ok && explicit {
			if _, err := f.Profile(); err != nil {
				return err
			}
		}
		err = cfg.Unset(name, key)
	} else {
		err = cfg.Set(name, key, value)
	}
	if err != nil {
		return err
	}
	if err := h.Ensure(); err != nil {
		return err
	}
	if err := cfg.Save(); err != nil {
		return err
	}
	p, _ := cfg.Profile(name)
	return f.Printer().Print(output.View{
		JSON: map[string]any{"profile": name, "key": key, "value": p.Get(key)},
		Rows: [][]string{{key, p.Get(key)}},
	})
}

// joinKeys lists the setting names for help and errors.
func joinKeys() string {
	s := ""
	for i, k := range config.KeyNames() {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}
