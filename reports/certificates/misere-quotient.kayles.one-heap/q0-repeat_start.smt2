; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x336663 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x347668 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x348484 (>= h0 71)))
(let (($x67568 (>= h0 0)))
(let (($x542486 (and $x67568)))
(and $x542486 $x348484 (or (and (distinct true true) true) (and true (and (distinct $x347668 $x336663) true))))))))))
(check-sat)
