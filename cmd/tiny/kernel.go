package main

// This file defines "tiny kernel": the Jupyter kernel (package jupyter) on
// a connection file, and "tiny kernel install", which writes its kernelspec.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"tiny/jupyter"
)

// kernelCmd runs "tiny kernel CONNECTION_FILE" or "tiny kernel install
// [--user|--prefix DIR]" and returns the exit status.
func kernelCmd(cfg config, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "install" {
		return kernelInstall(args[1:], getenv, stdout, stderr)
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, "tiny kernel: want CONNECTION_FILE, or install [--user|--prefix DIR] (see tiny help)")
		return 2
	}
	conn, err := jupyter.ReadConnection(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "tiny kernel: %v\n", err)
		return 1
	}
	k, err := jupyter.New(conn, jupyter.Options{
		Interp:    interpOptions(cfg, ".", nil, nil, nil),
		Version:   tinyVersion(),
		Log:       stderr,
		HelpLinks: helpLinks(),
	})
	if err != nil {
		fmt.Fprintf(stderr, "tiny kernel: %v\n", err)
		return 1
	}
	// A Ctrl-C meant for the notebook server reaches its kernels too: it
	// interrupts the running cell rather than ending the session.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	go func() {
		for range sigs {
			k.Interrupt()
		}
	}()
	go watchParent(getenv("JPY_PARENT_PID") != "", k.Shutdown)
	if err := k.Run(context.Background()); err != nil {
		fmt.Fprintf(stderr, "tiny kernel: %v\n", err)
		return 1
	}
	return 0
}

// tinyVersion is tiny's own version, as "tiny version" prints it but
// without the Go toolchain and platform: the language's version that
// kernel_info reports.
func tinyVersion() string {
	f := strings.Fields(version())
	for i, s := range f {
		if strings.HasPrefix(s, "go1") || strings.HasPrefix(s, "devel go") {
			return strings.Join(f[1:i], " ")
		}
	}
	return strings.Join(f[1:], " ")
}

// helpLinks are the notebook's Help menu entries: tinygrad's docs, whose
// ideas and names tiny follows, and this checkout's language reference
// and notebook guide when the binary was built from one that is still
// there.
func helpLinks() []jupyter.HelpLink {
	links := []jupyter.HelpLink{{Text: "tinygrad documentation", URL: "https://docs.tinygrad.org/"}}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return links
	}
	docs := filepath.Join(filepath.Dir(file), "..", "..", "docs")
	for _, d := range []struct{ text, name string }{{"tiny language reference", "language.md"}, {"tiny in Jupyter", "jupyter.md"}} {
		if p := filepath.Join(docs, d.name); filepath.IsAbs(p) && fileExists(p) {
			links = append(links, jupyter.HelpLink{Text: d.text, URL: "file://" + filepath.ToSlash(p)})
		}
	}
	return links
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// watchParent calls shutdown once the frontend that started the kernel has
// died without a shutdown request, so that it leaves no kernel running: once
// this process's parent changes, or is init (pid 1, which adopts orphans;
// the parent may die before the first look). It watches only when launched
// is set (jupyter_client sets JPY_PARENT_PID in a kernel's environment), and
// only where a parent's death shows in os.Getppid.
func watchParent(launched bool, shutdown func()) {
	if !launched || runtime.GOOS == "windows" {
		return
	}
	parent := os.Getppid()
	for range time.Tick(time.Second) {
		if p := os.Getppid(); p != parent || p == 1 {
			shutdown()
			return
		}
	}
}

// kernelInstall writes the kernelspec for this tiny binary into the user's
// Jupyter data directory (--user, the default) or under --prefix DIR.
func kernelInstall(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	dataDir, err := "", error(nil)
	switch {
	case len(args) == 0 || len(args) == 1 && args[0] == "--user":
		dataDir, err = jupyter.UserDataDir(getenv)
	case len(args) == 2 && args[0] == "--prefix":
		dataDir = jupyter.PrefixDataDir(args[1])
	default:
		fmt.Fprintln(stderr, "tiny kernel install: want [--user|--prefix DIR] (see tiny help)")
		return 2
	}
	exe, exeErr := executable()
	dir := ""
	if err = errors.Join(err, exeErr); err == nil {
		dir, err = jupyter.Install(dataDir, jupyter.Spec(exe))
	}
	if err != nil {
		fmt.Fprintf(stderr, "tiny kernel install: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "installed the tiny kernel spec in %s\n", dir)
	return 0
}

// executable returns the absolute path of the running tiny binary, with
// symlinks resolved, for the kernelspec to start.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return filepath.Abs(exe)
}
