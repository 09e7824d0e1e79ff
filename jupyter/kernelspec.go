package jupyter

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// KernelSpec is the kernel.json that tells Jupyter how to start a kernel.
type KernelSpec struct {
	Argv          []string `json:"argv"`
	DisplayName   string   `json:"display_name"`
	Language      string   `json:"language"`
	InterruptMode string   `json:"interrupt_mode"`
}

// Spec returns the kernel spec that starts tiny at binary (an absolute
// path) as "tiny kernel CONNECTION_FILE". Interrupts come as messages on
// the control socket.
func Spec(binary string) KernelSpec {
	return KernelSpec{
		Argv:          []string{binary, "kernel", "{connection_file}"},
		DisplayName:   "tiny",
		Language:      "tiny",
		InterruptMode: "message",
	}
}

// UserDataDir returns the user's Jupyter data directory, where
// "jupyter kernelspec install --user" puts kernels: $JUPYTER_DATA_DIR if
// set, else $XDG_DATA_HOME/jupyter, else ~/.local/share/jupyter
// (~/Library/Jupyter on macOS, %APPDATA%\jupyter on Windows).
func UserDataDir(getenv func(string) string) (string, error) {
	if d := getenv("JUPYTER_DATA_DIR"); d != "" {
		return d, nil
	}
	switch runtime.GOOS {
	case "darwin":
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, "Library", "Jupyter"), nil
		}
	case "windows":
		if app := getenv("APPDATA"); app != "" {
			return filepath.Join(app, "jupyter"), nil
		}
	default:
		if xdg := getenv("XDG_DATA_HOME"); xdg != "" {
			return filepath.Join(xdg, "jupyter"), nil
		}
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".local", "share", "jupyter"), nil
		}
	}
	return "", errors.New("no Jupyter data directory: set JUPYTER_DATA_DIR or HOME")
}

// PrefixDataDir returns the Jupyter data directory under an installation
// prefix, as "jupyter kernelspec install --prefix" uses: PREFIX/share/jupyter.
func PrefixDataDir(prefix string) string {
	return filepath.Join(prefix, "share", "jupyter")
}

// Install writes spec as kernels/tiny/kernel.json under the data directory
// dataDir and returns the directory of the kernel spec.
func Install(dataDir string, spec KernelSpec) (string, error) {
	dir := filepath.Join(dataDir, "kernels", "tiny")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "kernel.json"), append(data, '\n'), 0o644)
}
