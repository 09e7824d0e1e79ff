module tiny

go 1.26.8

require (
	github.com/chzyer/readline v1.5.1
	github.com/creack/pty v1.1.24
	github.com/ebitengine/purego v0.11.3
	github.com/fatih/color v1.19.0
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/mattn/go-isatty v0.0.20
	golang.org/x/sys v0.42.0
)

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	golang.org/x/sync v0.7.0 // indirect
	golang.org/x/text v0.15.0 // indirect
)
