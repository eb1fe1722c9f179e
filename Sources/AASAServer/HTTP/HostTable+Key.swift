extension HostTable {
    /// Up to ``keyCapacity`` bytes held inline, zero-padded: compared and
    /// hashed as six words, with no heap access.
    struct Key: Equatable {
        typealias Words = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        private var words: Words = (0, 0, 0, 0, 0, 0)
        private var length = 0

        static let empty = Key()

        private init() {}

        /// Nil for an empty header (never a host) and one too long to keep.
        /// Inlined: called, it would take the string owned (a retain more).
        @inline(__always)
        init?(_ header: String) {
            let copied = header.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
                guard !bytes.isEmpty, bytes.count <= HostTable.keyCapacity else { return false }
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
                length = bytes.count
                return true
            }
            guard copied == true else { return nil }
        }

        var isEmpty: Bool { length == 0 }

        static func == (one: Key, other: Key) -> Bool {
            one.length == other.length && one.words.0 == other.words.0 && one.words.1 == other.words.1
                && one.words.2 == other.words.2 && one.words.3 == other.words.3 && one.words.4 == other.words.4
                && one.words.5 == other.words.5
        }

        /// A multiply-xorshift mix of the words under a per-table seed.
        @inline(__always)
        func hash(seed: UInt64) -> UInt64 {
            let start = seed ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
            return Self.mix(
                Self.mix(Self.mix(Self.mix(Self.mix(Self.mix(start, words.0), words.1), words.2), words.3), words.4),
                words.5
            )
        }

        @inline(__always)
        private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            return mixed ^ (mixed >> 31)
        }
    }
}
