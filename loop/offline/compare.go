package offline

// differences lists the inputs where the mutant's outcome differs from the original's, the
// simplest first (shrink.go), at most limit of them; a timeout on the mutant ends the list.
func differences(orig *original, mut *exploration, limit int) []candidate {
	var out, bounds []candidate
	for _, mr := range mut.records {
		bounded := mr.outcome.K == "timeout" || mr.outcome.K == "bound"
		or, ok := orig.byIndex[mr.I]
		if !ok || or.key() != mr.key() {
			if bounded && ok && len(out) < limit {
				bounds = append(bounds, candidate{rec: or, em: emphasis{timeout: true}})
			}
			continue
		}
		if bounded {
			// past a bound: the test runs the call under a time limit, and only on the original
			if len(out) < limit {
				bounds = append(bounds, candidate{rec: or, em: emphasis{timeout: true, stopped: mr.outcome.Stopped}})
			}
			break
		}
		em, differ := outcomesDiffer(&or.outcome, &mr.outcome)
		if !differ {
			continue
		}
		out = append(out, candidate{rec: or, em: em})
	}
	simplestFirst(out)
	if len(out) > limit {
		out = out[:limit]
	}
	return append(out, bounds...)
}

func findObserved(obs []observed, m string) (observed, bool) {
	for _, o := range obs {
		if o.M == m {
			return o, true
		}
	}
	return observed{}, false
}

func findAfter(as []argAfter, i int) (argAfter, bool) {
	for _, a := range as {
		if a.A == i {
			return a, true
		}
	}
	return argAfter{}, false
}

func sameValue(a, b *value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.K != b.K || a.V != b.V || a.X != b.X || len(a.Obs) != len(b.Obs) {
		return false
	}
	for i := range a.Obs {
		if a.Obs[i].M != b.Obs[i].M || !sameValue(&a.Obs[i].R, &b.Obs[i].R) {
			return false
		}
	}
	return true
}
