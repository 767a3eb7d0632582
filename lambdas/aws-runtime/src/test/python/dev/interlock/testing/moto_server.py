"""moto's server for one test JVM (MotoServer.java): binds 127.0.0.1 on an ephemeral port, prints
"moto listening on <port>" once it accepts connections, and stops when its standard input closes -- so the
server never outlives the JVM that started it, even when that JVM is killed.

Run by hand the same way:  python3 moto_server.py   (Ctrl-D stops it)
"""
import logging
import sys

from moto.server import ThreadedMotoServer


def main() -> None:
    # One line per request would flood the test output; errors still show.
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    print(f"moto listening on {server.get_host_and_port()[1]}", flush=True)
    sys.stdin.read()
    server.stop()


if __name__ == "__main__":
    main()
