import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain blocking TCP connection to 127.0.0.1, for holding many
/// connections open against a server in another process. Every read and
/// write is bounded by a socket timeout, so a server that never answers
/// fails the test instead of hanging it.
final class HeldConnection {
    private let descriptor: Int32
    private var pending: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String

        static func system(_ call: String) -> Failure {
            Failure(description: "\(call): \(String(cString: strerror(errno)))")
        }
    }

    init(port: Int, timeoutSeconds: Int = 10) throws {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure.system("socket") }
        self.descriptor = descriptor
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: in_addr_t(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure.system("connect to 127.0.0.1:\(port)") }
    }

    deinit {
        close(descriptor)
    }

    func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            guard sent > 0 else { throw Failure.system("send") }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// One response: its status and body (by `Content-Length`); nil when
    /// the server closed before a whole response arrived.
    func readResponse() throws -> (status: Int, body: String)? {
        while true {
            if let response = takeResponse() { return response }
            guard try fill() else { return nil }
        }
    }

    /// Everything until the server closes the connection.
    func readToEnd() throws -> String {
        while try fill() {}
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Reads what is there; false at the end of the stream. A timeout or
    /// another error throws.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure.system("recv") }
        pending += buffer.prefix(count)
        return count > 0
    }

    private func takeResponse() -> (status: Int, body: String)? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = pending.indices.dropLast(3).first(where: { pending[$0..<$0 + 4].elementsEqual(separator) })
        else { return nil }
        let head = String(decoding: pending[..<end], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let status = lines.first.flatMap({ $0.split(separator: " ").dropFirst().first }).flatMap({ Int($0) })
        else { return nil }
        let length =
            lines.dropFirst()
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let bodyStart = end + 4
        guard pending.count >= bodyStart + length else { return nil }
        let body = String(decoding: pending[bodyStart..<bodyStart + length], as: UTF8.self)
        pending.removeFirst(bodyStart + length)
        return (status, body)
    }
}
