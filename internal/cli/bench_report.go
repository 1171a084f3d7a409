package cli

import "io"

// A benchReport is the result of a bench command, printable as text or JSON.
type benchReport interface {
	WriteJSON(w io.Writer) error
	WriteText(w io.Writer) error
}

// writeReport prints rep to w as one JSON object when asJSON is set, as text otherwise.
func writeReport(w io.Writer, rep benchReport, asJSON bool) error {
	if asJSON {
		return rep.WriteJSON(w)
	}
	return rep.WriteText(w)
}
