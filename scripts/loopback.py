"""A service on loopback, as the example's test and its benchmark start one."""
import socket
import time


def listens(port, seconds=60):
    """Whether something accepts connections on 127.0.0.1:port within `seconds` (a service starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.1)
