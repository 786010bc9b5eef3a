import dgram from "node:dgram";
import ipaddr from "ipaddr.js";

/** What the fake server answers for a name: addresses (A and AAAA by family), NXDOMAIN, or nothing. */
export type DnsAnswer = string[] | "nxdomain" | "silent";

export interface FakeDns {
  /** `127.0.0.1:<port>`, for `configureWebhooks({dnsServers: [server]})`. */
  server: string;
  /** Sets the answer for a name (lowercase, no trailing dot); unknown names are NXDOMAIN. */
  answer(name: string, answer: DnsAnswer): void;
  close(): Promise<void>;
}

/** A minimal UDP DNS server on localhost answering A and AAAA queries from a table (tests only). */
export async function startFakeDns(): Promise<FakeDns> {
  const table = new Map<string, DnsAnswer>();
  const socket = dgram.createSocket("udp4");
  socket.on("message", (query, peer) => {
    // Question: labels from byte 12 to a zero byte, then QTYPE and QCLASS.
    let offset = 12;
    const labels: string[] = [];
    while (query[offset]! > 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString("ascii"));
      offset += length + 1;
    }
    const questionEnd = offset + 5;
    const qtype = query.readUInt16BE(offset + 1);
    const answer = table.get(labels.join(".").toLowerCase()) ?? "nxdomain";
    if (answer === "silent") return;
    const records =
      answer === "nxdomain"
        ? []
        : answer
            .map((address) => ipaddr.parse(address))
            .filter((address) => (qtype === 1 ? address.kind() === "ipv4" : address.kind() === "ipv6"));
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(answer === "nxdomain" ? 0x8183 : 0x8180, 2); // response, RD, RA, rcode
    header.writeUInt16BE(1, 4); // QDCOUNT
    header.writeUInt16BE(records.length, 6); // ANCOUNT
    const rrs = records.map((address) => {
      const bytes = Buffer.from(address.toByteArray());
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the question's name
      rr.writeUInt16BE(qtype, 2);
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6); // TTL
      rr.writeUInt16BE(bytes.length, 10);
      return Buffer.concat([rr, bytes]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...rrs]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    answer: (name, answer) => void table.set(name.toLowerCase(), answer),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
