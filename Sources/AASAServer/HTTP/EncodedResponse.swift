import NIOCore

/// A response encoded once, at load time: everything after the status line,
/// the `Date` header and the `Connection` header (which the connection adds,
/// see ``DateLine``), i.e. the remaining header lines, the blank line and the
/// body.
///
/// A GET writes `bytes`; a HEAD writes its first `headLength` bytes, a slice
/// of the same storage, so neither allocates on the request path.
public struct EncodedResponse: Sendable {
    public let status: Status
    public let bytes: ByteBuffer
    public let headLength: Int
    /// How the exchange ends: the connection writes its ``Connection/headerLine``.
    public let connection: Connection

    /// Whether the connection closes after this response.
    @inline(__always)
    public var closesConnection: Bool { connection == .close }

    /// The statuses the origin ever sends. There is deliberately no 3xx.
    public enum Status: Int, Sendable, CaseIterable {
        case ok = 200
        case notModified = 304
        case preconditionFailed = 412
        case badRequest = 400
        case notFound = 404
        case methodNotAllowed = 405
        case uriTooLong = 414
        case requestHeaderFieldsTooLarge = 431
        case serviceUnavailable = 503

        /// `HTTP/1.1 200 OK\r\n`: a constant, copied into each response
        /// without building a string.
        public var statusLine: StaticString {
            switch self {
            case .ok: "HTTP/1.1 200 OK\r\n"
            case .notModified: "HTTP/1.1 304 Not Modified\r\n"
            case .preconditionFailed: "HTTP/1.1 412 Precondition Failed\r\n"
            case .badRequest: "HTTP/1.1 400 Bad Request\r\n"
            case .notFound: "HTTP/1.1 404 Not Found\r\n"
            case .methodNotAllowed: "HTTP/1.1 405 Method Not Allowed\r\n"
            case .uriTooLong: "HTTP/1.1 414 URI Too Long\r\n"
            case .requestHeaderFieldsTooLarge: "HTTP/1.1 431 Request Header Fields Too Large\r\n"
            case .serviceUnavailable: "HTTP/1.1 503 Service Unavailable\r\n"
            }
        }
    }

    /// How the response ends the exchange; the `Connection` header differs.
    public enum Connection: Int, Sendable, CaseIterable {
        /// HTTP/1.1 persistent: no header needed.
        case keepAlive
        /// HTTP/1.0 client that asked for keep-alive: must be told it got it.
        case keepAliveHTTP10
        /// The connection closes after this response.
        case close

        /// A constant written behind the `Date` line, not stored in `bytes`:
        /// the three variants of a response then share one copy of its body.
        public var headerLine: StaticString {
            switch self {
            case .keepAlive: ""
            case .keepAliveHTTP10: "Connection: keep-alive\r\n"
            case .close: "Connection: close\r\n"
            }
        }
    }

    /// The number of bytes ``payload(isHead:)`` returns.
    @inline(__always)
    func payloadLength(isHead: Bool) -> Int {
        isHead ? headLength : bytes.readableBytes
    }

    /// The bytes to write for this request method.
    @inline(__always)
    func payload(isHead: Bool) -> ByteBuffer {
        isHead ? bytes.getSlice(at: bytes.readerIndex, length: headLength) ?? bytes : bytes
    }
}

/// One response in its three connection variants, chosen by
/// ``EncodedResponse/Connection``: one encoding, the variant only says which
/// `Connection` line goes in front of it.
public struct EncodedResponseSet: Sendable {
    private let status: EncodedResponse.Status
    private let bytes: ByteBuffer
    private let headLength: Int

    /// What to encode: `headers` (name, value pairs), `Content-Length` unless
    /// `sendsLength` is false (a 304), the blank line and `body`.
    struct Part {
        let status: EncodedResponse.Status
        let headers: [(String, String)]
        let body: [UInt8]
        var sendsLength = true

        /// Appended piece by piece into one string sized up front: every
        /// file of a load encodes four of these, and interpolation built a
        /// string per line.
        fileprivate var head: String {
            var head = ""
            head.reserveCapacity(headers.reduce(40) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 })
            for (name, value) in headers {
                head += name
                head += ": "
                head += value
                head += "\r\n"
            }
            if sendsLength {
                head += "Content-Length: "
                head += String(body.count)
                head += "\r\n"
            }
            head += "\r\n"
            return head
        }
    }

    /// A response with `body`; a 304 passes an empty body and `sendsLength: false`.
    init(status: EncodedResponse.Status, headers: [(String, String)], body: [UInt8], sendsLength: Bool = true) {
        self = Self.packed([Part(status: status, headers: headers, body: body, sendsLength: sendsLength)])[0]
    }

    private init(status: EncodedResponse.Status, bytes: ByteBuffer, headLength: Int) {
        self.status = status
        self.bytes = bytes
        self.headLength = headLength
    }

    /// `parts` encoded into one buffer, each set a slice of it (a slice shares
    /// the storage). ByteBuffer rounds every allocation up to a power of two:
    /// one buffer for all the responses of a file, rather than one per
    /// response, keeps what a host costs close to the bytes it serves.
    static func packed(_ parts: [Part]) -> [EncodedResponseSet] {
        let heads = parts.map(\.head)
        var buffer = ByteBuffer()
        buffer.reserveCapacity(zip(heads, parts).reduce(0) { $0 + $1.0.utf8.count + $1.1.body.count })
        var ranges: [(start: Int, headLength: Int)] = []
        for (head, part) in zip(heads, parts) {
            let start = buffer.writerIndex
            ranges.append((start, buffer.writeString(head)))
            buffer.writeBytes(part.body)
        }
        // Sliced only once everything is written: a slice taken earlier would
        // keep a storage the buffer had outgrown.
        let ends = ranges.dropFirst().map(\.start) + [buffer.writerIndex]
        return zip(zip(ranges, ends), parts).map { range, part in
            let ((start, headLength), end) = range
            return EncodedResponseSet(
                status: part.status,
                bytes: buffer.getSlice(at: start, length: end - start) ?? buffer,
                headLength: headLength
            )
        }
    }

    @inline(__always)
    subscript(connection: EncodedResponse.Connection) -> EncodedResponse {
        EncodedResponse(status: status, bytes: bytes, headLength: headLength, connection: connection)
    }
}
