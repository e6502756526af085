/// Plain-text tables: columns padded to their widest cell, two spaces apart.
enum Table {
    /// Each cell is one line: a control character in a value, a line break included, is shown
    /// escaped (`TerminalText`), so no value can paint over the table or add a row to it.
    static func render(_ header: [String], _ rows: [[String]]) -> String {
        let rows = rows.map { $0.map { TerminalText.inert($0) } }
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                text += index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return text
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
