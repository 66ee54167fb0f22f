"""Count the widget messages a kernel would send to the browser, without a kernel or a browser.

Inside ``with CommMeter() as meter:`` every widget created gets a comm that encodes each message
as the kernel does (``jupyter_client``'s JSON packer: ``json.dumps(..., ensure_ascii=False,
allow_nan=False)`` as UTF-8, plus binary buffers) and records its size, instead of dropping it as
the default ``DummyComm`` does. So "bytes over the websocket" and "same data is not re-sent" can be
tested in pure Python. Widgets created before the block keep their old comm and are not counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

import comm
from comm.base_comm import BaseComm


@dataclass(frozen=True)
class WireMessage:
    msg_type: str  # comm_open | comm_msg | comm_close
    comm_id: str
    nbytes: int
    method: Optional[str]  # "update" / "custom" for comm_msg
    keys: tuple[str, ...]  # the state keys an open or update carries


class _MeteredComm(BaseComm):
    kernel = True  # ipywidgets only sends through a comm that has a kernel

    def __init__(self, *args, meter: "CommMeter", **kwargs):
        self._meter = meter
        super().__init__(*args, **kwargs)

    def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys) -> None:
        content = dict(data=data or {}, comm_id=self.comm_id, **keys)
        body = json.dumps(content, ensure_ascii=False, allow_nan=False, default=str).encode("utf8")
        meta = json.dumps(metadata or {}).encode("utf8")
        nbytes = len(body) + len(meta) + sum(len(memoryview(b).cast("B")) for b in (buffers or ()))
        data = data or {}
        state = data.get("state") or {}
        self._meter.messages.append(WireMessage(msg_type, self.comm_id, nbytes, data.get("method"),
                                                tuple(sorted(state))))

    # No comm manager: nothing in this process answers, and a widget closed (or collected) after
    # the block must not look itself up in the kernel's manager.
    def open(self, data=None, metadata=None, buffers=None) -> None:
        self.publish_msg("comm_open", data=data, metadata=metadata, buffers=buffers,
                         target_name=self.target_name, target_module=self.target_module)
        self._closed = False

    def close(self, data=None, metadata=None, buffers=None, deleting=False) -> None:
        if self._closed:
            return
        self._closed = True
        if not deleting:
            self.publish_msg("comm_close", data=data, metadata=metadata, buffers=buffers)


@dataclass
class CommMeter:
    """A context manager recording every widget message sent while it is active."""

    messages: list[WireMessage] = field(default_factory=list)
    _saved: Any = None

    def __enter__(self) -> "CommMeter":
        self._saved = comm.create_comm
        comm.create_comm = lambda *a, **k: _MeteredComm(*a, meter=self, **k)
        return self

    def __exit__(self, *exc) -> None:
        comm.create_comm = self._saved

    @property
    def nbytes(self) -> int:
        return sum(m.nbytes for m in self.messages)

    def mark(self) -> int:
        """A position in the message list, for ``since``."""
        return len(self.messages)

    def since(self, mark: int) -> list[WireMessage]:
        return self.messages[mark:]

    def bytes_since(self, mark: int) -> int:
        return sum(m.nbytes for m in self.messages[mark:])


__all__ = ["CommMeter", "WireMessage"]
