; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x76506 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x295110 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x427858 (>= h0 71)))
(let (($x267569 (>= h0 0)))
(let (($x83573 (and $x267569)))
(and $x83573 $x427858 (or (and (distinct true true) true) (and true (and (distinct $x295110 $x76506) true))))))))))
(check-sat)
