/// Per-scalar case folding for `caseSensitive: false` (docs/SEMANTICS.md §3.4).
enum CaseFolding {
    /// ASCII lowercase; for other scalars, simple case folding approximated
    /// as lowercase(uppercase(c)) where both mappings are single scalars
    /// (`ς`→`σ`, `ſ`→`s`, `ẞ`→`ß`), which the standard library exposes
    /// while it does not expose the folding table itself.
    @inline(__always)
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value < 0x80 {
            guard scalar.value >= 0x41, scalar.value <= 0x5A else { return scalar }
            return Unicode.Scalar(UInt8(scalar.value + 0x20))
        }
        return foldNonASCII(scalar)
    }

    private static func foldNonASCII(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        // U+0131 ı has no simple folding; uppercase-then-lowercase would make it `i`.
        guard scalar.value != 0x131 else { return scalar }
        var result = scalar
        if let upper = single(scalar.properties.uppercaseMapping) { result = upper }
        if let lower = single(result.properties.lowercaseMapping) { result = lower }
        return result
    }

    private static func single(_ mapping: String) -> Unicode.Scalar? {
        let scalars = mapping.unicodeScalars
        guard let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex else {
            return nil
        }
        return first
    }
}
