"""Runs the same protocol scenarios against ipykernel and the tiny kernel
with jupyter_client, and compares what each answers: the message types,
the statuses, the keys of every content, and the numbers' relations.

Run by TestKernelParity with JUPYTER_DATA_DIR holding tiny's kernelspec;
ipykernel's ("python3") comes from the system. Prints "ok" when the two
kernels behaved alike.
"""
import json
import sys
import time

from jupyter_client.manager import start_new_kernel

# The code of each scenario, per language.
CODE = {
    "python3": {"fail": "1/0", "ok": "x = 1", "ok2": "y = 2", "value": "40 + 2", "incomplete": "def f(a):",
                "name": "hits = 0", "inc": "hits += 1", "input": "who = input('name? ')\nwho", "show": "hits"},
    "tiny": {"fail": "nope", "ok": "x = 1", "ok2": "y = 2", "value": "40 + 2", "incomplete": "fn f(a) {",
             "name": "hits = 0", "inc": "hits += 1", "input": "who = input(\"name? \")\nwho", "show": "hits"},
}


def keys(d):
    return sorted(d.keys())


def scenarios(name):
    code = CODE[name]
    out = {}
    km, kc = start_new_kernel(kernel_name=name, startup_timeout=60)
    try:
        def drain():
            msgs = []
            while True:
                try:
                    msgs.append(kc.get_iopub_msg(timeout=0.5))
                except Exception:
                    return msgs

        kc.execute_interactive(code["ok"], timeout=30)
        drain()

        # Run All: three requests back to back, the first failing.
        ids = [kc.execute(c) for c in (code["fail"], code["ok"], code["ok2"])]
        replies = [kc.get_shell_msg(timeout=30) for _ in ids]
        out["run all"] = [(ids.index(r["parent_header"]["msg_id"]), r["content"]["status"]) for r in replies]
        out["aborted reply keys"] = keys(replies[1]["content"])
        # engine_info is IPython parallel's; tiny has no engines.
        out["error reply keys"] = [k for k in keys(replies[0]["content"]) if k != "engine_info"]
        pub = drain()
        errs = [m["content"] for m in pub if m["msg_type"] == "error"]
        out["error message keys"] = [keys(e) for e in errs]
        out["iopub per aborted request"] = sorted(
            [m["msg_type"] + ":" + m["content"].get("execution_state", "")
             for m in pub if m["parent_header"].get("msg_id") == ids[1]])

        # A replayed message is refused.
        kc.execute_interactive(code["name"], timeout=30)
        msg = kc.session.msg("execute_request", {"code": code["inc"], "silent": False, "store_history": True,
                                                 "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        frames = kc.session.serialize(msg)
        kc.shell_channel.socket.send_multipart(frames)
        kc.shell_channel.socket.send_multipart(frames)
        kc.get_shell_msg(timeout=30)
        res = []
        kc.execute_interactive(code["show"], output_hook=res.append, timeout=30)
        out["replay runs"] = [m["content"]["data"]["text/plain"] for m in res if m["msg_type"] == "execute_result"]
        drain()

        # comm_open for an unknown target.
        comm = kc.session.msg("comm_open", {"comm_id": "c-1", "target_name": "nobody.here", "data": {}})
        kc.shell_channel.send(comm)
        pub = drain()
        out["comm_open"] = [(m["msg_type"], m["content"]) for m in pub
                            if m["parent_header"].get("msg_id") == comm["header"]["msg_id"] and m["msg_type"] != "status"]

        # store_history=False: the result's count against the reply's.
        res = []
        r = kc.execute_interactive(code["value"], output_hook=res.append, timeout=30)
        n = r["content"]["execution_count"]
        res = []
        r = kc.execute_interactive(code["value"], store_history=False, output_hook=res.append, timeout=30)
        out["store_history=False"] = ([m["content"]["execution_count"] - n for m in res if m["msg_type"] == "execute_result"],
                                      r["content"]["execution_count"] - n)
        out["execute_result keys"] = [keys(m["content"]) for m in res if m["msg_type"] == "execute_result"]

        # Replies' keys.
        kc.is_complete(code["incomplete"])
        c = kc.get_shell_msg(timeout=30)["content"]
        out["is_complete"] = (c["status"], keys(c))
        kc.complete("x", 1)
        out["complete keys"] = keys(kc.get_shell_msg(timeout=30)["content"])
        kc.inspect("x", 1)
        c = kc.get_shell_msg(timeout=30)["content"]
        out["inspect"] = (c["found"], keys(c))
        kc.kernel_info()
        c = kc.get_shell_msg(timeout=30)["content"]
        out["kernel_info keys"] = keys(c)
        out["language_info has"] = [k for k in ("name", "version", "mimetype", "file_extension", "pygments_lexer", "codemirror_mode") if k in c["language_info"]]
        out["help_links"] = bool(c["help_links"]) and keys(c["help_links"][0])

        # input(): the request's keys, and the value coming back.
        asked = []

        def answer(m):
            asked.append(keys(m["content"]))
            kc.input("tiny")
        res = []
        kc.execute_interactive(code["input"], allow_stdin=True, stdin_hook=answer, output_hook=res.append, timeout=30)
        out["input"] = (asked, [m["content"]["data"]["text/plain"].strip("'\"") for m in res if m["msg_type"] == "execute_result"])
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return out


python, tiny = scenarios("python3"), scenarios("tiny")
bad = False
for k in python:
    if python[k] != tiny.get(k):
        bad = True
        print("DIFFERENT", k, "\n  ipykernel:", json.dumps(python[k]), "\n  tiny:     ", json.dumps(tiny.get(k)))
if bad:
    sys.exit(1)
print(json.dumps(tiny, indent=1))
print("ok")
