"""Writes examples/data/fashion-mnist/: the first 2,000 training and 1,000
test images and labels of Fashion-MNIST (MIT license, Zalando Research), in
the IDX .gz format of the full set, from Debian's dataset-fashion-mnist.
Run from the repository root with /usr/bin/python3."""

import gzip
import os
import struct

SRC = "/usr/share/datasets/fashion-mnist"
DST = os.path.join("examples", "data", "fashion-mnist")
KEEP = {"train": 2000, "t10k": 1000}


def main():
    os.makedirs(DST, exist_ok=True)
    for part, n in KEEP.items():
        for kind, off in (("images-idx3-ubyte", 16), ("labels-idx1-ubyte", 8)):
            name = f"{part}-{kind}.gz"
            raw = gzip.open(os.path.join(SRC, name)).read()
            head = bytearray(raw[:off])
            struct.pack_into(">I", head, 4, n)
            per = 784 if off == 16 else 1
            body = raw[off:off + n * per]
            with open(os.path.join(DST, name), "wb") as f:
                f.write(gzip.compress(bytes(head) + body, mtime=0))


if __name__ == "__main__":
    main()
