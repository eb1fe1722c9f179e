import AASAKit
import NIOHTTP1

/// Decides the response to a request head against a snapshot. No I/O, no
/// channel: the NIO handler only adapts, and tests drive this directly.
///
/// Every answer is one of the pre-encoded responses; nothing is encoded here.
public struct Responder: Sendable {
    let statics: StaticResponses

    public init() {
        self.statics = StaticResponses()
    }

    /// What to send, and the counts of the host (if any) it is accounted to.
    public struct Reply: Sendable {
        public let response: EncodedResponse
        let counts: RequestCounts?
        public let isHead: Bool
    }

    /// What the serving handler writes: a reply, or the answer a slot of the
    /// event loop's ``HostTable`` already knows, which the handler writes
    /// from the slot in place (a reply would retain its response and counts).
    enum Answer {
        case reply(Reply)
        case known(slot: Int, isHead: Bool)
    }

    public func respond(to head: HTTPRequestHead, snapshot: SiteSnapshot) -> Reply {
        respond(to: head, snapshot: snapshot, hosts: nil)
    }

    /// ``answer(to:snapshot:hosts:)`` as a reply, known answers copied out
    /// of their slot.
    func respond(to head: HTTPRequestHead, snapshot: SiteSnapshot, hosts: HostTable?) -> Reply {
        let answer = answer(to: head, snapshot: snapshot, hosts: hosts)
        if let hosts, case .known(let slot, let isHead) = answer {
            return hosts.reply(knownAt: slot, isHead: isHead)
        }
        guard case .reply(let reply) = answer else { preconditionFailure("only a table knows answers") }
        return reply
    }

    /// - Parameter hosts: the event loop's table; the answer is the same
    ///   with or without it.
    func answer(to head: HTTPRequestHead, snapshot: SiteSnapshot, hosts: HostTable?) -> Answer {
        // Each field of the head read once: every access to the head's
        // storage is reference counted.
        // The Host field is kept apart from the others: consumed below, it is
        // not released again (nil) when the fields are destroyed.
        var hostField: String?
        let request = RequestFields(head.headers, host: &hostField)
        let method = RequestMethod(head.method)
        let version = head.version
        let isHead = method == .head
        // Malformed requests close the connection: after a framing doubt
        // nothing later on it can be trusted.
        if request.hasBody || request.hostHeaderCount > 1 {
            return .reply(Reply(response: statics.badRequest[.close], counts: nil, isHead: isHead))
        }

        // NIO's decoder stops parsing after an upgrade request (and CONNECT),
        // buffering whatever follows; the origin upgrades to nothing, so such
        // a request is answered and the connection closed.
        let connection =
            request.upgrade || method == .connect ? .close : request.connection(version: version)
        let target = head.uri
        let route: Route?
        // Read from the table's slot only when the slot does not know the
        // answer: each host read is a retain and a release.
        var host: SiteHost?
        var slot = -1
        if target.utf8.first == UInt8(ascii: "/") {
            route = Route(originForm: target)
            // Consumed, not copied (a copy is a retain and a release of
            // the string).
            if let header = consume hostField {
                if hosts != nil {
                    // The usual request: the table resolves the header as
                    // received, checking it the first time it sees it.
                    // Not bound with `if let`: the binding is a copy,
                    // retained and released around the call.
                    guard let found = hosts.unsafelyUnwrapped.resolve(header, in: snapshot, into: &host) else {
                        return .reply(Reply(response: statics.badRequest[.close], counts: nil, isHead: isHead))
                    }
                    slot = found
                } else {
                    // The String overload keeps the header's own string as
                    // the key when it is already normalised.
                    guard let name = HostName(authority: header) else {
                        return .reply(Reply(response: statics.badRequest[.close], counts: nil, isHead: isHead))
                    }
                    host = snapshot.host(for: name)
                }
            } else if version.major == 1, version.minor >= 1 {
                // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400.
                return .reply(Reply(response: statics.badRequest[.close], counts: nil, isHead: isHead))
            } else {
                // HTTP/1.0 may omit Host: then it is an unknown host.
                host = snapshot.fallback
            }
        } else {
            // Apart from the usual request: its names live and die here,
            // not in the scope every answer releases on its way out.
            guard let other = Self.otherForm(target, header: consume hostField, version: version, in: snapshot)
            else {
                return .reply(Reply(response: statics.badRequest[.close], counts: nil, isHead: isHead))
            }
            route = other.route
            host = other.host
        }

        guard let route else {
            return .reply(Reply(response: statics.notFound[connection], counts: nil, isHead: isHead))
        }
        guard method == .get || isHead else {
            return .reply(Reply(response: statics.methodNotAllowed[connection], counts: nil, isHead: isHead))
        }
        let acceptsGzip = request.acceptsGzip
        var selector = -1
        if let hosts, slot >= 0 {
            // Nearly every request: no preconditions, and the slot already
            // knows the answer; neither the host nor its file is touched.
            if !request.conditions.isPresent {
                selector = HostTable.selector(route: route, acceptsGzip: acceptsGzip, connection: connection)
                if hosts.knows(at: slot, selector: selector) { return .known(slot: slot, isHead: isHead) }
            }
            host = hosts.host(at: slot)
        }
        guard let host, let file = host.file(for: route) else {
            let response = statics.notFound[connection]
            if selector >= 0, let hosts {
                // Learnt, then written like every later request's answer.
                hosts.learn(response, counts: host?.counts, at: slot, for: selector)
                return .known(slot: slot, isHead: isHead)
            }
            return .reply(Reply(response: response, counts: host?.counts, isHead: isHead))
        }
        // Borrowed from the file, never copied: a copy of the responses
        // retains and releases each of their buffers and entity tags. A
        // request without preconditions (nearly all) only needs the 200.
        let response =
            if !request.conditions.isPresent {
                acceptsGzip ? file.responses.gzip.ok[connection] : file.responses.identity.ok[connection]
            } else if acceptsGzip {
                answer(file.responses.gzip, file.responses.lastModified, request.conditions, connection)
            } else {
                answer(file.responses.identity, file.responses.lastModified, request.conditions, connection)
            }
        if selector >= 0, let hosts {
            hosts.learn(response, counts: host.counts, at: slot, for: selector)
            return .known(slot: slot, isHead: isHead)
        }
        return .reply(Reply(response: response, counts: host.counts, isHead: isHead))
    }

    /// The route and host of a target not in origin form: an absolute
    /// target (`GET http://host/path`), whose authority replaces Host (RFC
    /// 9112 §3.2.2), or `*` and garbage, simply not one of our paths. Nil
    /// for a 400: an HTTP/1.1 request without Host, or an invalid Host or
    /// authority (RFC 9112 §3.2), whichever names the host.
    private static func otherForm(
        _ target: String,
        header: String?,
        version: HTTPVersion,
        in snapshot: SiteSnapshot
    ) -> (route: Route?, host: SiteHost?)? {
        if let header {
            guard HostName(authority: header) != nil else { return nil }
        } else if version.major == 1, version.minor >= 1 {
            return nil
        }
        guard let absolute = AbsoluteTarget(Substring(target)) else { return (nil, nil) }
        guard let authority = HostName(authority: absolute.authority) else { return nil }
        return (Route(target: absolute.path), snapshot.host(for: authority))
    }

    /// The 200, 304 or 412 the preconditions select for `representation`.
    @inline(__always)
    private func answer(
        _ representation: borrowing FileResponses.Representation,
        _ lastModified: Int,
        _ conditions: borrowing RequestConditions,
        _ connection: EncodedResponse.Connection
    ) -> EncodedResponse {
        switch conditions.evaluate(for: representation, lastModified: lastModified) {
        case .send: representation.ok[connection]
        case .notModified: representation.notModified[connection]
        case .failed: statics.preconditionFailed[connection]
        }
    }

    /// The response to a request NIO's parser rejected.
    public func parserFailure(_ error: HTTPParserError) -> EncodedResponse {
        switch error {
        case .headerOverflow: statics.requestHeaderFieldsTooLarge[.close]
        default: statics.badRequest[.close]
        }
    }

    /// The response to a connection over `limits.maxConnections`.
    public var overloaded: EncodedResponse { statics.serviceUnavailable[.close] }
}

/// The methods routing tells apart. Matched as enum cases once: comparing
/// `HTTPMethod`s with `==` goes through their string raw values.
enum RequestMethod {
    case get
    case head
    case connect
    case other

    @inline(__always)
    init(_ method: HTTPMethod) {
        switch method {
        case .GET: self = .get
        case .HEAD: self = .head
        case .CONNECT: self = .connect
        default: self = .other
        }
    }
}

/// The header fields routing needs, read in one pass over the head.
/// Not copyable: it is read in place, never copied (each copy would retain
/// its strings).
struct RequestFields: ~Copyable {
    var hostHeaderCount = 0
    var conditions = RequestConditions()
    /// `Accept-Encoding` evaluated as it is read (its last line decides):
    /// a string kept for later would be released at the end of every
    /// request, present or not.
    var acceptsGzip = false
    var hasBody = false
    var connectionClose = false
    var connectionKeepAlive = false
    var upgrade = false

    /// - Parameter host: set to the first `Host` field's value.
    init(_ headers: borrowing HTTPHeaders, host: inout String?) {
        // Walked by index rather than with `for … in`: the iterator holds a
        // copy of the headers, a retain and a release of their array.
        var index = headers.startIndex
        let end = headers.endIndex
        while index != end {
            let (name, value) = headers[index]
            index = headers.index(after: index)
            switch name.utf8.count {
            case 4 where name.equalsASCIICaseInsensitive("host"):
                hostHeaderCount += 1
                // The first kept: a second Host is refused anyway. Stored
                // only into nil, it releases no previous value.
                if host == nil { host = value }
            case 10 where name.equalsASCIICaseInsensitive("connection"):
                for token in value.split(separator: ",") {
                    let token = token.trimmingSpaces
                    if token.equalsASCIICaseInsensitive("close") { connectionClose = true }
                    if token.equalsASCIICaseInsensitive("keep-alive") { connectionKeepAlive = true }
                }
            case 7 where name.equalsASCIICaseInsensitive("upgrade"):
                upgrade = true
            case 8 where name.equalsASCIICaseInsensitive("if-match"):
                conditions.add(value, to: \.ifMatch)
            case 13 where name.equalsASCIICaseInsensitive("if-none-match"):
                conditions.add(value, to: \.ifNoneMatch)
            case 14 where name.equalsASCIICaseInsensitive("content-length"):
                if value.trimmingSpaces != "0" { hasBody = true }
            case 15 where name.equalsASCIICaseInsensitive("accept-encoding"):
                acceptsGzip = AcceptEncoding.allowsGzip(value)
            case 17 where name.equalsASCIICaseInsensitive("transfer-encoding"):
                hasBody = true
            case 17 where name.equalsASCIICaseInsensitive("if-modified-since"):
                conditions.add(value, to: \.ifModifiedSince)
            case 19 where name.equalsASCIICaseInsensitive("if-unmodified-since"):
                conditions.add(value, to: \.ifUnmodifiedSince)
            default:
                break
            }
        }
    }

    func connection(version: HTTPVersion) -> EncodedResponse.Connection {
        if connectionClose { return .close }
        if version.major == 1, version.minor >= 1 { return .keepAlive }
        return connectionKeepAlive ? .keepAliveHTTP10 : .close
    }
}
