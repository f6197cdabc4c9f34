; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x54233 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x63103 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x78946 (>= h0 71)))
(let (($x97507 (>= h0 0)))
(let (($x96778 (and $x97507)))
(and $x96778 $x78946 (or (and (distinct true true) true) (and true (and (distinct $x63103 $x54233) true))))))))))
(check-sat)
