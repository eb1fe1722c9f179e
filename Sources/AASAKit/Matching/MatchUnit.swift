/// One unit of a URL component as the patterns compare it: a Unicode
/// scalar, or a byte of a component that is all ASCII.
///
/// Why bytes give the same decisions as scalars: in an ASCII text each byte
/// is one scalar of the same value, so `?` (one scalar) consumes one byte,
/// and folding an ASCII scalar (``CaseFolding/fold(_:)``) is ASCII
/// lowercasing. A pattern's literals are compared by their folded value, so
/// a non-ASCII literal that folds to ASCII (`ſ` → `s`, `K` → `k`) still
/// meets its bytes. The matcher hands the automata, globs, literals and the
/// rule index bytes only for components it has checked are ASCII; any
/// other text goes as scalars, as before.
protocol MatchUnit: Equatable {
    /// The unit as a scalar.
    var scalar: Unicode.Scalar { get }
    /// ``CaseFolding/fold(_:)`` of the unit.
    var folded: Unicode.Scalar { get }
    static var slash: Self { get }
    static var star: Self { get }
}

extension Unicode.Scalar: MatchUnit {
    @inline(__always) var scalar: Unicode.Scalar { self }
    @inline(__always) var folded: Unicode.Scalar { CaseFolding.fold(self) }
    static var slash: Unicode.Scalar { "/" }
    static var star: Unicode.Scalar { "*" }
}

/// Only ever a byte below 0x80 (see ``MatchUnit``).
extension UInt8: MatchUnit {
    @inline(__always) var scalar: Unicode.Scalar { Unicode.Scalar(self) }
    @inline(__always) var folded: Unicode.Scalar { Unicode.Scalar(self >= 0x41 && self <= 0x5A ? self | 0x20 : self) }
    static var slash: UInt8 { UInt8(ascii: "/") }
    static var star: UInt8 { UInt8(ascii: "*") }
}

/// A component's text as the patterns read it: bytes when all of it is
/// ASCII (the usual case: an encoded component always is), else scalars.
enum MatchText {
    case ascii([UInt8])
    case scalars([Unicode.Scalar])
}

/// ``MatchText`` lent for the length of a call: one of ``MatchInput``'s
/// buffers, valid only inside the closure it is handed to.
enum LentText {
    case ascii(UnsafeBufferPointer<UInt8>)
    case scalars(UnsafeBufferPointer<Unicode.Scalar>)
}
