"""A Dask scheduler's address, checked before Dask is imported (that takes about a second), so
that a mistyped one is a quick line of bad input."""
import re
import string

from tables.errors import TableError

# A scheduler on the network, over TCP: tcp://10.0.0.5:8786, host:8786, [::1]:8786. Dask's other
# protocols are refused: tls:// needs a security configuration this program does not take, and
# inproc:// or ucx:// cannot reach workers in other processes here (Dask fails on them with a
# traceback of its own). re.ASCII: a port in another script's digits is not read as one.
ADDRESS = re.compile(r"(?:(?P<protocol>[a-z]+)://)?"
                     r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<host>[^\s:/\[\]]+)):(?P<port>\d{1,5})",
                     re.ASCII)


BLANKS = string.whitespace      # ASCII only: a no-break space is not a blank here


def check_scheduler(address: str) -> str:
    """``address`` without surrounding blanks, or TableError if it cannot be a TCP address."""
    found = ADDRESS.fullmatch(address.strip(BLANKS)) if isinstance(address, str) else None
    if not found or not 1 <= int(found["port"]) <= 65535:
        raise TableError(f"cannot reach the Dask scheduler at {address!r}: an address is "
                         "[PROTOCOL://]HOST:PORT, e.g. tcp://127.0.0.1:8786")
    if found["protocol"] not in (None, "tcp"):
        raise TableError(f"cannot reach the Dask scheduler at {address.strip(BLANKS)!r}: "
                         f"only tcp:// addresses are supported, not {found['protocol']}://")
    return address.strip(BLANKS)


def host_and_port(address: str) -> tuple[str, int]:
    """The host (an IPv6 address without its brackets) and port of a checked address."""
    found = ADDRESS.fullmatch(check_scheduler(address))
    return found["ipv6"] or found["host"], int(found["port"])
