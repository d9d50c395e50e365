package stack

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Server log rotation: at 64 MiB, server.log moves to server.log.1 (and .1
// to .2 …), three old files kept. It runs before each start.
const (
	logRotateAt = 64 << 20
	logKeep     = 3
)

func rotateLog(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Size() < logRotateAt) {
		return nil
	}
	if err != nil {
		return err
	}
	for i := logKeep - 1; i >= 1; i-- {
		_ = os.Rename(fmt.Sprintf("%s.%d", path, i), fmt.Sprintf("%s.%d", path, i+1))
	}
	return os.Rename(path, path+".1")
}

// Tail returns the last n lines of a file; a missing file is no lines.
// It reads from the end, so a 64 MiB log costs what n lines cost.
func Tail(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	var buf []byte
	for chunk := int64(64 << 10); ; chunk *= 2 {
		start := max(size-chunk, 0)
		buf = make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if start == 0 || bytes.Count(buf, []byte("\n")) > n {
			break
		}
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(buf))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}
