; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x10687 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x30077 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x65494 (>= h0 71)))
(let (($x65407 (>= h0 0)))
(let (($x531077 (and $x65407)))
(and $x531077 $x65494 (or (and (distinct true true) true) (and true (and (distinct $x30077 $x10687) true))))))))))
(check-sat)
