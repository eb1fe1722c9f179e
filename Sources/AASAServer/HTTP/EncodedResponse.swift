import NIOCore

/// A response encoded once, at load time: everything after the status line
/// and `Date` header (which the connection adds, see ``DateLine``),
/// i.e. the remaining header lines, the blank line and the body.
///
/// A GET writes `bytes`; a HEAD writes its first `headLength` bytes, a slice
/// of the same storage, so neither allocates on the request path.
public struct EncodedResponse: Sendable {
    public let status: Status
    public let bytes: ByteBuffer
    public let headLength: Int
    /// Whether the connection closes after this response.
    public let closesConnection: Bool

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

        var headerLine: String {
            switch self {
            case .keepAlive: ""
            case .keepAliveHTTP10: "Connection: keep-alive\r\n"
            case .close: "Connection: close\r\n"
            }
        }
    }

    /// Encodes `headers` (name, value pairs), `Content-Length` (omitted when
    /// `nil`, as on a 304), the connection header and `body`.
    init(
        status: Status,
        headers: [(String, String)],
        contentLength: Int?,
        body: [UInt8],
        connection: Connection
    ) {
        var head = ""
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        if let contentLength {
            head += "Content-Length: \(contentLength)\r\n"
        }
        head += connection.headerLine
        head += "\r\n"
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.utf8.count + body.count)
        let headLength = buffer.writeString(head)
        buffer.writeBytes(body)
        self.status = status
        self.bytes = buffer
        self.headLength = headLength
        self.closesConnection = connection == .close
    }

    /// The bytes to write for this request method.
    @inline(__always)
    func payload(isHead: Bool) -> ByteBuffer {
        isHead ? bytes.getSlice(at: bytes.readerIndex, length: headLength) ?? bytes : bytes
    }
}

/// One response in its three connection variants, chosen by
/// ``EncodedResponse/Connection``.
public struct EncodedResponseSet: Sendable {
    // Three stored properties rather than an array: picking one is a switch,
    // with no array to retain or bounds to check on the request path.
    private let keepAlive: EncodedResponse
    private let keepAliveHTTP10: EncodedResponse
    private let close: EncodedResponse

    /// A response with `body`; a 304 passes an empty body and `sendsLength: false`.
    init(status: EncodedResponse.Status, headers: [(String, String)], body: [UInt8], sendsLength: Bool = true) {
        func variant(_ connection: EncodedResponse.Connection) -> EncodedResponse {
            EncodedResponse(
                status: status,
                headers: headers,
                contentLength: sendsLength ? body.count : nil,
                body: body,
                connection: connection
            )
        }
        self.keepAlive = variant(.keepAlive)
        self.keepAliveHTTP10 = variant(.keepAliveHTTP10)
        self.close = variant(.close)
    }

    @inline(__always)
    subscript(connection: EncodedResponse.Connection) -> EncodedResponse {
        switch connection {
        case .keepAlive: keepAlive
        case .keepAliveHTTP10: keepAliveHTTP10
        case .close: close
        }
    }
}
