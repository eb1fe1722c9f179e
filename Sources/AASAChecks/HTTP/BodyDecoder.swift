import CompressNIO
import NIOCore

/// Undoes the `Content-Encoding` of a body, bounded: a gzip bomb stops at
/// the limit like an endless body does.
enum BodyDecoder {
    static func decode(_ raw: ByteBuffer, encoding: String?, limit: Int, url: String) throws(FetchError) -> [UInt8] {
        let algorithm: CompressionAlgorithm
        switch encoding {
        case nil: return Array(raw.readableBytesView)
        case "gzip", "x-gzip": algorithm = .gzip()
        case "deflate": algorithm = .zlib()
        case let other?:
            throw FetchError(.undecodableBody(reason: "unsupported Content-Encoding \"\(other)\""), url: url)
        }
        var compressed = raw
        do {
            // One byte of headroom: CompressNIO refuses to fill the buffer
            // exactly, and a body of exactly `limit` bytes is acceptable.
            let decoded = try compressed.decompress(with: algorithm, maxSize: limit + 1)
            return Array(decoded.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw FetchError(.bodyTooLarge(limit: limit), url: url)
        } catch {
            throw FetchError(
                .undecodableBody(
                    reason:
                        "the body is labelled Content-Encoding: \(encoding ?? "") but does not decompress (\(error))"
                ),
                url: url
            )
        }
    }
}
