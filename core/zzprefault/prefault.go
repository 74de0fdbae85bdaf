package zzprefault

import (
	"os"
	"syscall"
	"unsafe"
)

func init() {
	if os.Getenv("NOPF") != "" {
		return
	}
	fd, err := syscall.Open("/proc/self/maps", syscall.O_RDONLY, 0)
	if err != nil {
		return
	}
	buf := make([]byte, 64<<10)
	n, _ := syscall.Read(fd, buf)
	syscall.Close(fd)
	buf = buf[:n]
	exe, _ := os.Readlink("/proc/self/exe")
	first := true
	for len(buf) > 0 {
		i := 0
		for i < len(buf) && buf[i] != '\n' {
			i++
		}
		line := string(buf[:i])
		if i < len(buf) {
			i++
		}
		buf = buf[i:]
		var lo, hi uintptr
		j := 0
		for ; line[j] != '-'; j++ {
			lo = lo<<4 | hexv(line[j])
		}
		j++
		for ; line[j] != ' '; j++ {
			hi = hi<<4 | hexv(line[j])
		}
		perms := line[j+1 : j+5]
		isExe := len(line) > len(exe) && line[len(line)-len(exe):] == exe
		advice := 0
		switch {
		case isExe && perms[1] == '-':
			advice = 22 // MADV_POPULATE_READ
		case isExe && perms[1] == 'w', !isExe && first && perms[1] == 'w' && os.Getenv("BSS") != "":
			advice = 23 // MADV_POPULATE_WRITE
		}
		if isExe {
			first = true
		} else {
			first = false
		}
		if advice != 0 {
			syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, uintptr(advice))
		}
	}
	_ = unsafe.Pointer(nil)
}

func hexv(c byte) uintptr {
	if c >= 'a' {
		return uintptr(c - 'a' + 10)
	}
	return uintptr(c - '0')
}
