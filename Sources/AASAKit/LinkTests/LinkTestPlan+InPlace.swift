extension LinkTestPlan {
    /// The indices of the items that pass `test`, in order.
    ///
    /// The items are read where they lie, and `test` reads the fields it
    /// asks about through the pointer: iterating `items` (a `for` loop,
    /// `filter`, `contains`) copies each item, and handing `test` the entry
    /// copies that, a retain and a release of every field of it, 100,000
    /// times for a long list.
    func itemIndices(where test: (UnsafePointer<Item>) -> Bool) -> [Int] {
        items.withUnsafeBufferPointer { items in
            items.indices.filter { test(items.baseAddress! + $0) }
        }
    }

    /// Whether some item passes `test`, reading them in place.
    func containsItem(where test: (UnsafePointer<Item>) -> Bool) -> Bool {
        items.withUnsafeBufferPointer { items in
            items.indices.contains { test(items.baseAddress! + $0) }
        }
    }
}
