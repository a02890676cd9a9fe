extension String {
    /// The text without leading and trailing white space (SDP values often carry some).
    var trimmingSpaces: Substring {
        var view = self[...]
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return view
    }
}
