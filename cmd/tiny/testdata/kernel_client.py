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
    check(info["language_info"]["name"] == "tiny", ("kernel_info", info))

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
