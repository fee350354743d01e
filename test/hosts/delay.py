"""Delays, drops and reorders the packets a host sends, for a kernel built without netem (sch_netem).

Run inside the host's namespace; an iptables rule there (`-o eth0 -j NFQUEUE --queue-num 0 --queue-bypass`)
hands this process every packet the host sends. Each is held for the delay (plus up to the jitter) and then
let go, dropped at random (loss), or let go at once (reorder: it overtakes those still held), as netem would
(docs/operations.md#across-hosts). It speaks the nfnetlink_queue protocol on a netlink socket itself, so it
needs nothing but Python. On SIGTERM every packet still held is let go before it exits.

    python3 delay.py DELAY_MS JITTER_MS LOSS_PERCENT REORDER_PERCENT
"""

import heapq
import random
import select
import signal
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
SOL_NETLINK = 270
NETLINK_NO_ENOBUFS = 5
NFNL_SUBSYS_QUEUE = 3
MSG_PACKET, MSG_VERDICT, MSG_CONFIG = 0, 1, 2
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
CFG_CMD, CFG_PARAMS, CFG_QUEUE_MAXLEN = 1, 2, 3
CMD_BIND = 1
COPY_META = 1
PACKET_HDR = 1
VERDICT_HDR = 2
NF_DROP, NF_ACCEPT = 0, 1
QUEUE = 0


def attribute(kind, payload):
    head = struct.pack("=HH", 4 + len(payload), kind)
    return head + payload + b"\0" * (-len(payload) % 4)


def message(kind, flags, attributes, seq=0):
    body = struct.pack("=BB", socket.AF_UNSPEC, 0) + struct.pack("!H", QUEUE) + b"".join(attributes)
    return struct.pack("=IHHII", 16 + len(body), (NFNL_SUBSYS_QUEUE << 8) | kind, flags, seq, 0) + body


def configure(sock, attributes, seq):
    sock.send(message(MSG_CONFIG, NLM_F_REQUEST | NLM_F_ACK, attributes, seq))
    data = sock.recv(65536)
    _, kind, _, _, _ = struct.unpack_from("=IHHII", data)
    if kind == NLMSG_ERROR and struct.unpack_from("=i", data, 16)[0] != 0:
        sys.exit("delay.py: the queue refused its configuration (is another process bound to it?)")


def packet_ids(data):
    """The ids of the packets in one read (several netlink messages may come together)."""
    offset = 0
    while offset + 16 <= len(data):
        length, kind, _, _, _ = struct.unpack_from("=IHHII", data, offset)
        if length < 16:
            return
        if kind == (NFNL_SUBSYS_QUEUE << 8) | MSG_PACKET:
            at = offset + 20
            while at + 4 <= offset + length:
                size, attr = struct.unpack_from("=HH", data, at)
                if size < 4:
                    break
                if attr & 0x7FFF == PACKET_HDR:
                    yield struct.unpack_from("!I", data, at + 4)[0]
                at += (size + 3) & ~3
        offset += (length + 3) & ~3


def main():
    delay_ms, jitter_ms, loss, reorder = (float(a) for a in sys.argv[1:5])
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
    sock.setsockopt(SOL_NETLINK, NETLINK_NO_ENOBUFS, 1)
    sock.bind((0, 0))
    configure(sock, [attribute(CFG_CMD, struct.pack("!BxH", CMD_BIND, 0))], 1)
    configure(sock, [attribute(CFG_PARAMS, struct.pack("!IB", 0, COPY_META))], 2)
    configure(sock, [attribute(CFG_QUEUE_MAXLEN, struct.pack("!I", 100000))], 3)

    def verdict(packet, decision):
        sock.send(message(MSG_VERDICT, NLM_F_REQUEST, [attribute(VERDICT_HDR, struct.pack("!II", decision, packet))]))

    held = []  # (due, packet id)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    print("delay.py: bound", flush=True)
    while not stopping:
        now = time.monotonic()
        while held and held[0][0] <= now:
            verdict(heapq.heappop(held)[1], NF_ACCEPT)
        wait = max(0.0, held[0][0] - now) if held else 1.0
        try:
            ready, _, _ = select.select([sock], [], [], wait)
            data = sock.recv(1 << 20) if ready else b""
        except InterruptedError:
            continue
        except OSError:
            continue  # ENOBUFS: the kernel dropped some of our reads; those packets stay queued until we return
        for packet in packet_ids(data):
            draw = random.random() * 100
            if draw < loss:
                verdict(packet, NF_DROP)
            elif draw < loss + reorder:
                verdict(packet, NF_ACCEPT)
            else:
                due = time.monotonic() + (delay_ms + random.uniform(-jitter_ms, jitter_ms)) / 1000
                heapq.heappush(held, (due, packet))
    for _, packet in held:
        verdict(packet, NF_ACCEPT)


if __name__ == "__main__":
    main()
