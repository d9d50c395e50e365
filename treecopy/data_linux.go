package treecopy

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// copyData writes in's size bytes to out: a clone of the blocks (XFS,
// btrfs, bcachefs), else the kernel's copy_file_range (also a clone on
// some file systems, and never a trip through user space), else read and
// write.
func copyData(out, in *os.File, size int64) (Method, error) {
	if size == 0 {
		return Clone, nil
	}
	if err := unix.IoctlFileClone(int(out.Fd()), int(in.Fd())); err == nil {
		return Clone, nil
	}
	var done int64
	for done < size {
		n, err := unix.CopyFileRange(int(in.Fd()), nil, int(out.Fd()), nil, int(size-done), 0)
		if err != nil {
			if done == 0 && fallBack(err) {
				return stream(out, in)
			}
			return "", &os.PathError{Op: "copy", Path: out.Name(), Err: err}
		}
		if n == 0 { // the file shrank under us: copy what is there
			break
		}
		done += int64(n)
	}
	return Range, nil
}

// fallBack reports the errors of a kernel or file-system pair that has no
// copy_file_range for these files.
func fallBack(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EIO)
}

func freeBytes(dir string) (int64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(st.Bavail) * int64(st.Bsize), true
}

// stream is the plain copy, with the file types hidden so io.Copy does not
// try copy_file_range again.
func stream(out, in *os.File) (Method, error) {
	buf := make([]byte, 1<<20)
	if _, err := io.CopyBuffer(struct{ io.Writer }{out}, struct{ io.Reader }{in}, buf); err != nil {
		return "", err
	}
	return Streamed, nil
}

// clones reports whether a file like sample can be cloned into dir: one
// clone into a temporary file, removed at once.
func clones(sample, dir string) bool {
	in, err := os.Open(sample)
	if err != nil {
		return false
	}
	defer in.Close()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false
	}
	out, err := os.CreateTemp(dir, ".clone-probe-*")
	if err != nil {
		return false
	}
	defer os.Remove(out.Name())
	defer out.Close()
	return unix.IoctlFileClone(int(out.Fd()), int(in.Fd())) == nil
}

// identity is what tells a file unchanged: inode, mtime, ctime.
func identity(fi fs.FileInfo) (cached, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return cached{}, false
	}
	return cached{Ino: st.Ino, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}

// stamp sets a copied file's mode and modification time through its open
// descriptor (fchmod, futimens): no path is looked up again.
func stamp(f *os.File, mode fs.FileMode, mtime time.Time) error {
	if err := f.Chmod(mode); err != nil {
		return err
	}
	ts := []unix.Timespec{unix.NsecToTimespec(mtime.UnixNano()), unix.NsecToTimespec(mtime.UnixNano())}
	_, _, errno := unix.Syscall6(unix.SYS_UTIMENSAT, f.Fd(), 0, uintptr(unsafe.Pointer(&ts[0])), 0, 0, 0)
	if errno != 0 {
		return &os.PathError{Op: "futimens", Path: f.Name(), Err: errno}
	}
	return nil
}
