extension String {
    /// Left-aligns in `width` columns (at least one space follows).
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
