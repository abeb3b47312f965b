"""A Dask scheduler's address, checked before Dask is imported (that takes about a second), so
that a mistyped one is a quick line of bad input."""
import re

from tables.errors import TableError

# What Dask's Client takes for a scheduler on the network: tcp://10.0.0.5:8786, tls://host:8786,
# host:8786, [::1]:8786
ADDRESS = re.compile(r"(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})", re.ASCII)


def check_scheduler(address: str) -> str:
    """``address`` without surrounding blanks, or TableError if it cannot be an address."""
    found = ADDRESS.fullmatch(address.strip()) if isinstance(address, str) else None
    if not found or not 1 <= int(found.group(1)) <= 65535:
        raise TableError(f"cannot reach the Dask scheduler at {address!r}: an address is "
                         "[PROTOCOL://]HOST:PORT, e.g. tcp://127.0.0.1:8786")
    return address.strip()
