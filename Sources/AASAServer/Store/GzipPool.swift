import CompressNIO
import NIOConcurrencyHelpers
import NIOCore

/// gzip streams reused across the files of one load.
///
/// Setting up a deflate stream allocates ~256 KiB of window and hash
/// tables; for a 2 KB association file that cost three times the
/// compression itself (85 µs against 27 µs a file here). A stream reset
/// with `deflateReset` compresses exactly as a new one (the same level,
/// window and memory level, the header written again), so the bytes
/// served do not change.
///
/// A load creates one pool: a thread takes an idle stream, or makes one,
/// and puts it back after the file, so the pool holds at most one stream
/// per thread that compressed at once, and all of them go with the load.
///
/// `@unchecked Sendable`: a `ZlibCompressor` is used by one thread at a
/// time, the one that took it out of `idle` under the lock.
final class GzipPool: @unchecked Sendable {
    private let lock = NIOLock()
    private var idle: [ZlibCompressor] = []

    init() {}

    /// `bytes` as a gzip member, as `ByteBuffer.compress(with: .gzip())`
    /// writes it; nil if zlib fails (the file is then served identity only).
    func compress(_ bytes: [UInt8]) -> [UInt8]? {
        let reused = lock.withLock { idle.popLast() }
        guard let compressor = reused ?? (try? ZlibCompressor(algorithm: .gzip)) else { return nil }
        do {
            // Reset before use rather than after: a stream a failed deflate
            // left half-way starts clean too.
            if reused != nil { try compressor.reset() }
            var input = ByteBuffer(bytes: bytes)
            var output = ByteBuffer()
            output.reserveCapacity(compressor.maxSize(from: input))
            try compressor.deflate(from: &input, to: &output, flush: .finish)
            lock.withLock { idle.append(compressor) }
            return Array(buffer: output)
        } catch {
            // Not put back: a stream zlib failed on is dropped.
            return nil
        }
    }
}
