import Foundation

/// A pattern of literals, `?` and `*` only (`/shop/*/reviews/`, `*.pdf/`,
/// `/item/????/*`), the shape of most rules, matched without the automaton:
/// the fixed-length runs between the stars must appear in order, the first
/// at the start and the last at the end. Taking each middle run at its
/// leftmost place is enough: it leaves the most input for the runs after it.
///
/// Cost: the prefix and suffix compare once; a middle run is searched
/// naively, at most its length per input position, which is the bound of
/// the automaton on the same pattern.
struct StarGlob: Sendable {
    /// The runs between stars, one after the other; run `i` is
    /// `units[bounds[i]..<bounds[i + 1]]`: a scalar value (folded when
    /// `caseInsensitive`) or ``any`` for `?`. At least two runs (a pattern
    /// without stars is a plain literal or goes to the automaton).
    private let units: [UInt32]
    private let bounds: [Int]
    private let caseInsensitive: Bool
    /// The scalars every match needs at least.
    private let minimumCount: Int

    /// `?`: not a scalar value.
    private static let any = UInt32.max

    /// `nil` unless `tokens` are literals, `?` and at least one `*`.
    init?(tokens: [PatternToken], caseInsensitive: Bool) {
        var units: [UInt32] = []
        var bounds = [0]
        for token in tokens {
            switch token {
            case .literal(let scalar):
                units.append((caseInsensitive ? CaseFolding.fold(scalar) : scalar).value)
            case .any:
                units.append(Self.any)
            case .star:
                bounds.append(units.count)
            case .builtin, .variable:
                return nil
            }
        }
        bounds.append(units.count)
        guard bounds.count >= 3 else { return nil }
        self.units = units
        self.bounds = bounds
        self.caseInsensitive = caseInsensitive
        self.minimumCount = units.count
    }

    /// Whether the glob matches all of `input` (bytes of an ASCII text or
    /// scalars, ``MatchUnit``).
    ///
    /// - Parameter known: how many units at the start of `input` the caller
    ///   has already found equal to the glob's first ones, folded when the
    ///   glob is case-insensitive (the rule index walked them to offer the
    ///   rule); at most the first run's literals. They are counted as
    ///   compared, not compared again.
    func matches<Unit: MatchUnit>(_ input: UnsafeBufferPointer<Unit>, known: Int = 0, steps: inout Int) -> Bool {
        guard input.count >= minimumCount else { return false }
        let runCount = bounds.count - 1
        let prefix = bounds[0]..<bounds[1]
        let suffix = bounds[runCount - 1]..<bounds[runCount]
        steps += known
        guard equal(known..<prefix.upperBound, input, at: known, steps: &steps),
            equal(suffix, input, at: input.count - suffix.count, steps: &steps)
        else { return false }
        var position = prefix.count
        let end = input.count - suffix.count
        for index in 1..<(runCount - 1) {
            let run = bounds[index]..<bounds[index + 1]
            guard let found = firstPlace(of: run, in: input, from: position, before: end, steps: &steps) else {
                return false
            }
            position = found + run.count
        }
        return true
    }

    /// The first place at or after `start` where `run` ends by `end`.
    private func firstPlace<Unit: MatchUnit>(
        of run: Range<Int>,
        in input: UnsafeBufferPointer<Unit>,
        from start: Int,
        before end: Int,
        steps: inout Int
    ) -> Int? {
        var place = start
        let first = run.isEmpty ? Self.any : units[run.lowerBound]
        let searchable = Unit.self == UInt8.self && first < 0x80 && !(caseInsensitive && Self.isLetter(first))
        while place + run.count <= end {
            // Places without the run's first unit passed over, one step
            // each, as comparing the run there would count: by `memchr`
            // when only that byte can be the unit (a run like `/amp/` is
            // searched along every path), else one unit at a time.
            if searchable {
                let places = end - run.count - place + 1
                guard let found = Self.firstByte(UInt8(first), in: UnsafeRawPointer(input.baseAddress! + place), places)
                else {
                    steps += places
                    return nil
                }
                steps += found
                place += found
            } else if first != Self.any {
                while place + run.count <= end, value(of: input[place]) != first {
                    steps += 1
                    place += 1
                }
                guard place + run.count <= end else { return nil }
            }
            if equal(run, input, at: place, steps: &steps) { return place }
            place += 1
        }
        return nil
    }

    /// The offset of the first `byte` among `count` bytes at `start`.
    private static func firstByte(_ byte: UInt8, in start: UnsafeRawPointer, _ count: Int) -> Int? {
        // A URL path's segments are a few bytes apart: for a short span the
        // call to `memchr` (through the PLT, then its vector setup) cost more
        // than comparing the bytes here.
        guard count <= shortSpan else { return memchr(start, Int32(byte), count).map { UnsafeRawPointer($0) - start } }
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        var offset = 0
        while offset < count {
            if bytes[offset] == byte { return offset }
            offset += 1
        }
        return nil
    }

    /// Up to this many bytes are searched without `memchr`.
    private static let shortSpan = 64

    /// Whether a folded unit has another case among the bytes (`a`-`z`).
    private static func isLetter(_ unit: UInt32) -> Bool {
        unit >= 0x61 && unit <= 0x7A
    }

    /// What a unit of the input is compared as: folded when the glob is
    /// case-insensitive.
    @inline(__always)
    private func value<Unit: MatchUnit>(of unit: Unit) -> UInt32 {
        (caseInsensitive ? unit.folded : unit.scalar).value
    }

    @inline(__always)
    private func equal<Unit: MatchUnit>(
        _ run: Range<Int>,
        _ input: UnsafeBufferPointer<Unit>,
        at start: Int,
        steps: inout Int
    ) -> Bool {
        var offset = 0
        while offset < run.count {
            steps += 1
            let unit = units[run.lowerBound + offset]
            if unit != Self.any {
                if value(of: input[start + offset]) != unit { return false }
            }
            offset += 1
        }
        return true
    }
}
