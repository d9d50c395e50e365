package commands

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"loams.dev/cli/internal/errs"
	"loams.dev/cli/release"
	"loams.dev/cli/serverbin"
)

// The server installer as every face runs it (server install, stack create,
// init): this CLI's trusted keys, its consent rule and a progress bar.

// installServer runs the installer with this CLI's trusted keys, its
// consent rule and a progress bar on a terminal.
func (f *Factory) installServer(ctx context.Context, o serverbin.InstallOptions, consented bool) (*serverbin.Receipt, error) {
	h, err := f.Home()
	if err != nil {
		return nil, err
	}
	in := &serverbin.Installer{Home: h, Getenv: f.Getenv, Keys: append(release.Keys(), serverbin.TestKeys(f.Getenv)...),
		Fetcher: &serverbin.Fetcher{}, Now: f.Now,
		Warn:     func(s string) { f.warn("%s", s) }, // loud on purpose: also when piped
		Progress: f.downloadProgress,
		Consent: func(url string, size int64) error {
			if consented {
				return nil
			}
			if f.CanPrompt() {
				ok, err := f.askYes(fmt.Sprintf("Download the Loams server from %s (%s)?", url, sizeText(size)), false)
				if err != nil || ok {
					return err
				}
			}
			return consentError(url, size)
		},
	}
	return in.Install(ctx, o)
}

func consentError(url string, size int64) *errs.Error {
	return errs.New(errs.DownloadConsentRequired, "run `loams server install --allow-download` (or answer y at a terminal)",
		"downloading the Loams server (%s from %s) needs your consent", sizeText(size), url).
		With("url", url).With("size_bytes", size)
}

func sizeText(n int64) string {
	if n < 0 {
		return "size unknown"
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// downloadProgress draws a bar on stderr when it is a terminal.
func (f *Factory) downloadProgress(total int64) (func(io.Reader) io.Reader, func()) {
	if !f.IO.StderrTTY || f.Globals.Quiet {
		return nil, func() {}
	}
	p := &progressReader{w: f.IO.ErrOut, total: total}
	return func(r io.Reader) io.Reader { p.r, p.n = r, 0; return p }, p.done
}

type progressReader struct {
	mu    sync.Mutex
	r     io.Reader
	w     io.Writer
	n     int64
	total int64
	drawn time.Time
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n += int64(n)
	if time.Since(p.drawn) > 100*time.Millisecond || err == io.EOF {
		p.drawn = time.Now()
		p.draw()
	}
	return n, err
}

func (p *progressReader) draw() {
	const width = 30
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\rdownloading %s", sizeText(p.n))
		return
	}
	fill := int(min(p.n*width/p.total, width))
	bar := make([]byte, width)
	for i := range bar {
		bar[i] = ' '
		if i < fill {
			bar[i] = '#'
		}
	}
	fmt.Fprintf(p.w, "\rdownloading [%s] %3d%% %s", bar, p.n*100/p.total, sizeText(p.total))
}

func (p *progressReader) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\033[K")
}
