// Package jupyter is a Jupyter kernel for tiny: it speaks the Jupyter
// messaging protocol (version 5.3) over ZeroMQ, so that notebooks and
// consoles run tiny cells in one interpreter session.
//
// A frontend starts the kernel with a connection file (ReadConnection)
// naming five ports. The kernel binds them:
//
//	shell    ROUTER  requests that run one at a time: execute, complete, ...
//	control  ROUTER  the same requests, plus interrupt and shutdown, served
//	                 while a cell runs
//	stdin    ROUTER  input_request for input(), when the cell allows it
//	iopub    PUB     what every frontend sees: status busy/idle, the code
//	                 being run, stream output, pictures (display_data),
//	                 results and errors
//	hb       REP     the heartbeat: every message is echoed back
//
// A message on the wire (Message, Decode, Encode) is a list of frames: the
// routing identities, the delimiter "<IDS|MSG>", an HMAC-SHA256 signature of
// the next four frames (hex, keyed by the connection file's key), then the
// JSON header, parent header, metadata and content, then any binary buffers.
//
// Cells run in one *interp.Interp (Kernel.Handle), so their globals
// persist; a failing cell reports its error in the contract's format
// (file:line:col, the source line, a caret and the call frames) and the
// session goes on. The file name of cell N is "<cell N>", after the
// execution count a notebook shows as In [N].
//
// A cell's last value is shown in every form the interpreter has for it
// (interp.Output: a tensor's HTML table, a view's SVG diagram, ...);
// pictures and progress bars shown while it runs are display_data and
// update_display_data (display.go).
//
// This file and the others: message.go is the wire format, replay.go the
// history of signatures that refuses a replayed message, connection.go
// the connection file, kernel.go the sockets and their loops, handle.go
// the requests, execute.go running a cell (and aborting the rest of a Run
// All after a failure), display.go rich output and input(), stream.go its
// output, cell.go reading a cell's text (names, indent), inspect.go
// Shift-TAB and the help links, and kernelspec.go the kernel.json that
// tells Jupyter how to start tiny.
package jupyter
