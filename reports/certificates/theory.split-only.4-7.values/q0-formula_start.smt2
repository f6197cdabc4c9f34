; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let ((?x23507 (ite (= 0 (+ n 2)) 0 (- 2 (mod (+ n 2) 2)))))
(let (($x216082 (= ?x23507 (+ (ite (= 0 n) 0 (- 2 (mod n 2))) 0))))
(let (($x198656 (>= n 1)))
(and $x198656 (or (and (distinct true true) true) (and true (not $x216082))))))))
(check-sat)
