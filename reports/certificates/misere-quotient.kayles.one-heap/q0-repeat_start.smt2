; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x63555 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x629340 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x56281 (>= h0 71)))
(let (($x172678 (>= h0 0)))
(let (($x136464 (and $x172678)))
(and $x136464 $x56281 (or (and (distinct true true) true) (and true (and (distinct $x629340 $x63555) true))))))))))
(check-sat)
