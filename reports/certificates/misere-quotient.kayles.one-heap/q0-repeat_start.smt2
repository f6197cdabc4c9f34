; benchmark generated from python API
(set-info :status unknown)
(declare-fun h0 () Int)
(assert
 (let (($x16878 (or (= 1 (+ h0 12)) (= 4 (+ h0 12)) (= 9 (+ h0 12)) (= 12 (+ h0 12)) (= 20 (+ h0 12)))))
(let (($x680699 (or (= 1 h0) (= 4 h0) (= 9 h0) (= 12 h0) (= 20 h0))))
(let (($x120374 (>= h0 71)))
(let (($x91294 (>= h0 0)))
(let (($x122254 (and $x91294)))
(and $x122254 $x120374 (or (and (distinct true true) true) (and true (and (distinct $x680699 $x16878) true))))))))))
(check-sat)
