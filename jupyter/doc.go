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
//	stdin    ROUTER  bound but unused: tiny has no input()
//	iopub    PUB     what every frontend sees: status busy/idle, the code
//	                 being run, stream output, results and errors
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
// This file and the others: message.go is the wire format, connection.go
// the connection file, kernel.go the sockets and their loops, handle.go
// the requests, execute.go running a cell, stream.go its output, and
// kernelspec.go the kernel.json that tells Jupyter how to start tiny.
package jupyter
