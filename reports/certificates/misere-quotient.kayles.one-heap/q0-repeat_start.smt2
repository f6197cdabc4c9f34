; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x402337 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x304435 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x396296 (>= h0 71)))
(let (($x392963 (>= h0 0)))
(let (($x551058 (and $x392963)))
(and $x551058 $x396296 (or (and (distinct true true) true) (and true (and (distinct $x304435 $x402337) true))))))))))
(check-sat)
