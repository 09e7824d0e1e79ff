"""Drives the tiny kernel with jupyter_client, as Jupyter itself does.

Run by TestKernelPythonClient with JUPYTER_DATA_DIR holding the kernelspec
that "tiny kernel install" wrote. Prints "ok" when every check passed.
"""
import sys
import time

from jupyter_client.manager import start_new_kernel

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


km, kc = start_new_kernel(kernel_name="tiny", startup_timeout=30)
try:

    def run(code):
        out = []
        reply = kc.execute_interactive(code, output_hook=out.append, timeout=30)
        return reply["content"], [(m["msg_type"], m["content"]) for m in out]

    def results(out):
        return [c["data"]["text/plain"] for t, c in out if t == "execute_result"]

    c, out = run('x = 6\nprint("x is", x)')
    check(c["status"] == "ok" and c["execution_count"] == 1, ("first cell", c))
    check(("stream", {"name": "stdout", "text": "x is 6\n"}) in out, ("stream", out))

    c, out = run("x * 7")
    check(results(out) == ["42"] and c["execution_count"] == 2, ("execute_result", c, out))

    c, out = run("y = 1\nx.nope")
    errors = [m for t, m in out if t == "error"]
    check(c["status"] == "error" and len(errors) == 1, ("error reply", c, out))
    check(c["traceback"] == ["<cell 3>:2:3: error: int has no attribute nope", "    x.nope", "      ^"],
          ("traceback", c.get("traceback")))

    c, out = run("(x + y) * arange(3)")
    check(results(out) == ["tensor([ 0,  7, 14], dtype=int32)"], ("state after an error", c, out))

    kc.complete("print(x + ar", 12)
    c = kc.get_shell_msg(timeout=10)["content"]
    check(c["matches"] == ["arange", "args"] and c["cursor_start"] == 10,
          ("complete", c))

    for code, status in [("fn f(a) {", "incomplete"), ("f = 1", "complete"), ("f = )", "invalid")]:
        kc.is_complete(code)
        c = kc.get_shell_msg(timeout=10)["content"]
        check(c["status"] == status, ("is_complete", code, c))

    msg_id = kc.execute("n = 0\nwhile true { n += 1 }")
    time.sleep(0.5)
    km.interrupt_kernel()  # interrupt_mode "message": an interrupt_request on control
    reply = kc.get_shell_msg(timeout=10)
    c = reply["content"]
    check(reply["parent_header"]["msg_id"] == msg_id and c.get("ename") == "Interrupted",
          ("interrupt", c))

    c, out = run("n > 0")
    check(results(out) == ["true"], ("after the interrupt", c, out))
    kc.kernel_info()
    info = kc.get_shell_msg(timeout=10)["content"]
    li = info["language_info"]
    check(li["name"] == "tiny" and li["version"] == info["implementation_version"]
          and "go1" not in li["version"], ("kernel_info: language_info.version is tiny's", info))
    check(li["pygments_lexer"] == "python" and li["codemirror_mode"] == "python", ("highlighting", li))
    check(any(l["url"].startswith("https://docs.tinygrad.org") for l in info["help_links"]),
          ("help_links", info["help_links"]))

    # Run All: cells sent back to back, the first failing. Every one that
    # arrived before the failure's reply is answered aborted, after it and
    # in order, every time (ipykernel does); the next cell sent runs.
    runs = 0
    for attempt in range(30):
        # A notebook stamps the cells of a Run All in one loop before any
        # reply: build all three first, so that a client process held off
        # the CPU between sends (a loaded machine) does not date a cell
        # after the failure it was queued behind.
        msgs = [kc.session.msg("execute_request", {"code": code, "silent": False, "store_history": True,
                                                   "user_expressions": {}, "allow_stdin": False,
                                                   "stop_on_error": True})
                for code in ("nope_%d" % attempt, "ran_a = 1", "ran_b = 1")]
        for m in msgs:
            kc.shell_channel.send(m)
        ids = [m["header"]["msg_id"] for m in msgs]
        replies = [kc.get_shell_msg(timeout=10) for _ in ids]
        got = [(r["parent_header"]["msg_id"], r["content"]["status"]) for r in replies]
        check(got == list(zip(ids, ["error", "aborted", "aborted"])), ("run all", attempt, got))
        c, out = run("ran_a = 0")
        check(c["status"] == "ok", ("the cell after an aborted run all", c))
        c, out = run("1")
        runs += 1
    c, out = run("ran_b")
    check(c["status"] == "error" and "undefined: ran_b" in c["evalue"], ("an aborted cell ran", c))

    # A replayed message (the same signed frames again) is refused.
    run("hits = 0")
    msg = kc.session.msg("execute_request", {"code": "hits += 1", "silent": False, "store_history": True,
                                             "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
    frames = kc.session.serialize(msg)
    kc.shell_channel.socket.send_multipart(frames)
    kc.shell_channel.socket.send_multipart(frames)
    reply = kc.get_shell_msg(timeout=10)
    check(reply["parent_header"]["msg_id"] == msg["header"]["msg_id"], ("the first of a replay", reply))
    c, out = run("hits")
    check(results(out) == ["1"], ("a replayed message ran again", out))

    # comm_open for a target the kernel does not have: comm_close at once.
    comm = kc.session.msg("comm_open", {"comm_id": "c-1", "target_name": "jupyter.widget", "data": {}})
    kc.shell_channel.send(comm)
    closed = None
    deadline = time.time() + 10
    while closed is None and time.time() < deadline:
        m = kc.get_iopub_msg(timeout=10)
        if m["msg_type"] == "comm_close" and m["parent_header"].get("msg_id") == comm["header"]["msg_id"]:
            closed = m["content"]
    check(closed == {"comm_id": "c-1", "data": {}}, ("comm_close", closed))

    # store_history=False: the result carries the number the cell is shown
    # with, as IPython's display hook; the reply the last stored one.
    c, out = run("40 + 2")
    n = c["execution_count"]
    out = []
    reply = kc.execute_interactive("41", store_history=False, output_hook=out.append, timeout=30)
    counts = [m["content"]["execution_count"] for m in out if m["msg_type"] == "execute_result"]
    check(counts == [n + 1] and reply["content"]["execution_count"] == n, ("store_history=False", counts, reply["content"]))

    # is_complete indents two spaces per open bracket; completion sees the
    # names bound earlier in the same cell; inspect shows the docs.
    kc.is_complete("fn f(a) {\n  if a {")
    c = kc.get_shell_msg(timeout=10)["content"]
    check(c == {"status": "incomplete", "indent": "    "}, ("is_complete indent", c))
    code = "learning_rate = 0.1\nprint(learn"
    kc.complete(code, len(code))
    c = kc.get_shell_msg(timeout=10)["content"]
    check(c["matches"] == ["learning_rate"], ("complete a name of the same cell", c))
    run('import "nn" as nn')
    kc.inspect("nn.linear(", 10)
    c = kc.get_shell_msg(timeout=10)["content"]
    check(c["found"] and "fn linear(" in c["data"]["text/plain"], ("inspect", c))

    # input() asks the frontend when it allows stdin.
    def answer(msg):
        check(msg["content"]["prompt"] == "name? ", ("input_request", msg["content"]))
        kc.input("tiny")
    out = []
    reply = kc.execute_interactive('who = input("name? ")\nwho', allow_stdin=True, stdin_hook=answer,
                                   output_hook=out.append, timeout=30)
    check(results([(m["msg_type"], m["content"]) for m in out]) == ['"tiny"'], ("input", reply["content"], out))
    out = []
    c = kc.execute_interactive('input("name? ")', allow_stdin=False, output_hook=out.append, timeout=30)["content"]
    check(c["status"] == "error" and "does not support input requests" in c["evalue"], ("input not allowed", c))

    # %debug N: one cell at DEBUG=N.
    c, out = run("%debug 2\n(arange(3) + 1).sum()")
    text = "".join(m["text"] for t, m in out if t == "stream")
    check("kernel 0" in text and results(out) == ["tensor(6, dtype=int32)"], ("%debug", text, out))

    # Errors as ipykernel shapes them: ename, evalue, traceback lines.
    c, out = run("error(\"boom\")")
    errs = [m for t, m in out if t == "error"]
    check(c["ename"] == "EvalError" and c["evalue"] == "boom" and errs and errs[0]["evalue"] == "boom"
          and errs[0]["traceback"][0].endswith("error: boom"), ("error shape", c, errs))

    # Pictures: display_data; a progress bar updates one display in place.
    c, out = run("imshow(ones(2, 2))\nfor i in progress(2) { }\nshapetracker((2, 3)).permute(1, 0)")
    out = [(t, m) for t, m in out if t not in ("status", "execute_input")]
    kinds = [t for t, m in out]
    check(kinds[:1] == ["display_data"] and "image/png" in out[0][1]["data"], ("imshow", kinds))
    ids = [m.get("transient", {}).get("display_id") for t, m in out if t in ("display_data", "update_display_data")]
    check(len(ids) == 3 and ids[1] == ids[2] and kinds[2] == "update_display_data", ("progress", kinds, ids))
    res = [m for t, m in out if t == "execute_result"]
    check(res and "image/svg+xml" in res[0]["data"], ("a tracker's result", res))

    # A restart is a shutdown_request with restart=true, then a new process
    # on the same ports: a fresh session.
    km.restart_kernel(now=False)
    kc.wait_for_ready(timeout=30)
    c, out = run("n")
    check(c["status"] == "error" and c["execution_count"] == 1 and "undefined: n" in c["evalue"],
          ("after a restart", c))
finally:
    kc.stop_channels()
    del kc  # now, while logging still works: its __del__ logs
    km.shutdown_kernel(now=False)
check(not km.is_alive(), "the kernel is still alive after shutdown")
if failures:
    sys.exit(1)
print("ok")
