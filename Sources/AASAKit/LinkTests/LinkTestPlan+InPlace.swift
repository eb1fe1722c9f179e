extension LinkTestPlan {
    /// The indices of the items whose entry passes `test`, in order.
    ///
    /// The entries are read where they lie: iterating `items` (a `for`
    /// loop, `filter`, `contains`) copies each item, a retain and a release
    /// of every field of its entry and URL, 100,000 times for a long list.
    func itemIndices(where test: (LinkExpectations.Entry) -> Bool) -> [Int] {
        items.withUnsafeBufferPointer { items in
            items.indices.filter { test(items[$0].entry) }
        }
    }

    /// Whether some item's entry passes `test`, reading them in place.
    func containsItem(where test: (LinkExpectations.Entry) -> Bool) -> Bool {
        items.withUnsafeBufferPointer { items in
            items.indices.contains { test(items[$0].entry) }
        }
    }
}
