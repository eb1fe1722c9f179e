import Foundation

/// The buffers a long report (text or JSON) is rendered into, window after
/// window: the parts handed out are kept, and once the caller has written
/// and dropped them their pages serve the next parts, where each window's
/// parts (and then the text report's warnings) were fresh pages, faulted in
/// one by one.
package final class WindowBuffers: @unchecked Sendable {
    // Unchecked Sendable: `kept` is read and written under `lock` only.
    private let lock = NSLock()
    private var kept: [[UInt8]] = []

    package init() {}

    /// An empty buffer with room for at least `capacity` bytes: one of the
    /// parts kept, its pages reused when nothing else holds it any more
    /// (else a new buffer).
    package func take(reserving capacity: Int) -> [UInt8] {
        var bytes = lock.withLock { kept.popLast() ?? [] }
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
        return bytes
    }

    /// Parts about to be handed out, to be taken again once written.
    package func keep(_ parts: [[UInt8]]) {
        lock.withLock { kept += parts }
    }
}
